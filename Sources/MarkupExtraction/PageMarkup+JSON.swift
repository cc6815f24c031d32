public import LenientJSON

extension PageMarkup {
    /// The page in the `spotcheck extract` contract (DESIGN.md "Data contracts"): the keys the
    /// conformance scorers read, plus SpotCheck's own (`baseURL`, `encoding`, `smartAppBanners`,
    /// `jsonLDScripts`, `diagnostics` …). `attributeSet` and `findings` are added by later stages.
    public var contractJSON: JSONObject {
        var object = JSONObject()
        object.append("url", .string(url))
        object.append("jsonLD", .array(jsonLD.flatMap(\.contributedValues)))
        object.append("microdata", .array(microdata.map(\.json)))
        object.append("rdfa", .array(rdfa.map(\.json)))
        object.append("openGraph", .array(openGraph.map { $0.json(keyName: "property") }))
        object.append("twitter", .array(twitter.map { $0.json(keyName: "name") }))
        object.append("appLinks", .array(appLinks.map { $0.json(keyName: "property") }))
        object.append("smartAppBanner", smartAppBanner.map { .object($0.json) } ?? .null)
        object.append("title", title.map { .string($0.text) } ?? .null)
        object.append("description", descriptions.first.map { .string($0.content) } ?? .null)
        object.append("canonical", .array(canonicals.map { .string($0.content) }))
        object.append("robots", .array(robotsDirectives.map(JSONValue.string)))
        object.append("lang", lang.map { .string($0.text) } ?? .null)
        object.append("baseURL", .string(baseURL))
        object.append("encoding", .string(encoding))
        object.append("smartAppBanners", .array(smartAppBanners.map { .object($0.json) }))
        object.append("jsonLDScripts", .array(jsonLD.map { .object($0.json) }))
        object.append("sources", .object(sourceLines))
        object.append("diagnostics", .array(diagnostics.map { .object($0.json) }))
        return object
    }

    /// The robots meta tags as the contract lists them: the content for `robots`, `agent: content`
    /// for another agent's (`applebot: noindex`).
    public var robotsDirectives: [String] {
        robots.map { $0.key == "robots" ? $0.content : "\($0.key): \($0.content)" }
    }

    /// Lines of the page facts, so every value in the contract can be traced to the source.
    private var sourceLines: JSONObject {
        var object = JSONObject()
        if let title {
            object.append(
                "title", .object(["line": JSONValue(title.line), "section": .string(title.section.rawValue)]))
        }
        if let description = descriptions.first { object.append("description", description.location) }
        object.append("canonical", .array(canonicals.map(\.location)))
        object.append("robots", .array(robots.map(\.location)))
        object.append("openGraph", .array(openGraph.map(\.location)))
        object.append("twitter", .array(twitter.map(\.location)))
        object.append("appLinks", .array(appLinks.map(\.location)))
        if let lang { object.append("lang", .object(["line": JSONValue(lang.line)])) }
        if let baseHref {
            object.append("base", .object(["href": .string(baseHref.text), "line": JSONValue(baseHref.line)]))
        }
        return object
    }
}

extension JSONLDScript {
    /// The values this script adds to the contract's `jsonLD` list: a top-level array adds its
    /// members; an unrecoverable script adds nothing.
    public var contributedValues: [JSONValue] {
        switch value {
        case .array(let members): members
        case .some(let value): [value]
        case .none: []
        }
    }

    var json: JSONObject {
        var object = JSONObject()
        object.append("line", JSONValue(line))
        object.append("section", .string(section.rawValue))
        object.append("valid", .bool(isStrictlyValid))
        object.append("recovered", .bool(value != nil))
        object.append(
            "errors",
            .array(
                diagnostics.map { diagnostic in
                    .object([
                        "line": JSONValue(diagnostic.line), "column": JSONValue(diagnostic.column),
                        "severity": .string(diagnostic.severity.rawValue), "reason": .string(diagnostic.reason),
                    ])
                }))
        return object
    }
}

extension MetaTag {
    func json(keyName: String) -> JSONValue {
        var object = JSONObject()
        object.append(keyName, .string(key))
        object.append("content", .string(content))
        if attribute == .name, keyName == "property" { object.append("attribute", "name") }
        if attribute == .property, keyName == "name" { object.append("attribute", "property") }
        object.append("line", JSONValue(line))
        if section == .body { object.append("section", "body") }
        return .object(object)
    }

    var location: JSONValue {
        .object(["line": JSONValue(line), "section": .string(section.rawValue)])
    }
}

extension SmartAppBanner {
    public var json: JSONObject {
        var object = JSONObject()
        object.append("appID", appID.map(JSONValue.string) ?? .null)
        object.append("appArgument", appArgument.map(JSONValue.string) ?? .null)
        var parameters = JSONObject()
        for parameter in self.parameters where parameters[parameter.key] == nil {
            parameters.append(parameter.key, .string(parameter.value))
        }
        object.append("parameters", .object(parameters))
        object.append("content", .string(content))
        object.append("line", JSONValue(line))
        object.append("section", .string(section.rawValue))
        object.append("oddities", .array(oddities.map { .string($0.description) }))
        return object
    }
}

extension SmartAppBanner.Oddity: CustomStringConvertible {
    public var description: String {
        switch self {
        case .writtenWithProperty: "written with property= instead of name="
        case .nameNotLowercase(let name): "meta name \"\(name)\" is not lower-case"
        case .emptyContent: "content is empty"
        case .whitespaceAroundEquals(let key): "whitespace around '=' after \"\(key)\""
        case .missingSpaceAfterComma: "parameters separated by ',' without a following space"
        case .pieceWithoutValue(let piece): "\"\(piece)\" has no '=value'"
        case .emptyValue(let key): "\"\(key)\" has an empty value"
        case .keyNotLowercase(let key): "key \"\(key)\" is not lower-case"
        case .unknownKey(let key): "unknown key \"\(key)\""
        case .duplicateKey(let key, let ignored): "duplicate \"\(key)\" (ignored value \"\(ignored)\")"
        case .commaInAppArgument: "app-argument contains ',' (re-joined; write %2C)"
        case .missingComma: "parameters separated by whitespace instead of ','"
        case .parameterAsAttribute(let parameter):
            "\(parameter.key)=\"\(parameter.value)\" is an attribute of its own, outside content"
        }
    }
}

extension MarkupItem {
    /// WHATWG Microdata JSON shape, plus the item's source line.
    public var json: JSONValue {
        var object = JSONObject()
        if !types.isEmpty { object.append("type", .array(types.map(JSONValue.string))) }
        if let id { object.append("id", .string(id)) }
        var properties = JSONObject()
        for property in self.properties {
            properties.append(property.name, .array(property.values.map(\.json)))
        }
        object.append("properties", .object(properties))
        object.append("line", JSONValue(line))
        if orphan { object.append("orphan", .bool(true)) }
        return .object(object)
    }
}

extension ItemValue {
    public var json: JSONValue {
        switch kind {
        case .text(let text), .url(let text): .string(text)
        case .typedLiteral(let text, let datatype, let language):
            {
                var object = JSONObject()
                object.append("@value", .string(text))
                if let datatype { object.append("@type", .string(datatype)) }
                if let language { object.append("@language", .string(language)) }
                return .object(object)
            }()
        case .item(let item): item.json
        case .reference(let id): .object(["@id": .string(id)])
        case .cycle: "ERROR"
        }
    }
}

extension ExtractionDiagnostic {
    public var json: JSONObject {
        var object = JSONObject()
        object.append("code", .string(code.rawValue))
        object.append("line", JSONValue(line))
        if let column { object.append("column", JSONValue(column)) }
        object.append("message", .string(message))
        return object
    }
}
