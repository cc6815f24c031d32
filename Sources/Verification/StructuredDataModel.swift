import LenientJSON
import MarkupExtraction

/// A schema.org node from JSON-LD, Microdata or RDFa, in one shape for the SD rules: types and
/// property names with the schema.org prefix removed, each value with the position it came from
/// (JSON-LD values carry their script's).
struct StructuredNode {
    enum Syntax: String {
        case jsonLD = "JSON-LD"
        case microdata = "Microdata"
        case rdfa = "RDFa"
    }

    var syntax: Syntax
    /// Types with `https://schema.org/` (and http, `schema:`) removed.
    var types: [String]
    /// Types as written (SD007 looks at them).
    var rawTypes: [String]
    /// The types that are schema.org terms (SD003, SD005), from `rawTypes`: other vocabularies' types
    /// are left out.
    var schemaOrgTypes: [SchemaOrgTerm] = []
    var id: String?
    var properties: [StructuredProperty]
    var position: SourcePosition
    var line: Int { position.line }

    func values(_ name: String) -> [StructuredValue] {
        properties.lazy.filter { $0.name == name }.flatMap(\.values)
    }

    func has(_ name: String) -> Bool { properties.contains { $0.name == name && !$0.values.isEmpty } }

    func isA(_ type: String) -> Bool { types.contains(type) }

    var typeName: String { types.first ?? "item" }

    /// The first non-empty text of a property.
    func text(_ name: String) -> String? {
        values(name).lazy.compactMap { $0.text?.trimmedWhitespace }.first { !$0.isEmpty }
    }

    /// The nested nodes of a property.
    func nodes(_ name: String) -> [StructuredNode] { values(name).compactMap(\.node) }
}

struct StructuredProperty {
    /// The name as written (`query-input`, `ratingValue`), schema.org prefix removed.
    var name: String
    var values: [StructuredValue]
    /// The schema.org property the name stands for (SD004–SD006); nil for a JSON-LD keyword alias, a
    /// term the JSON-LD context defines, or a term of another vocabulary.
    var schemaOrgName: String? = nil
}

/// A type or property of the schema.org vocabulary as a page names it.
struct SchemaOrgTerm: Hashable {
    /// The term's name in the vocabulary (`Movie`).
    var name: String
    /// How the page writes it (`Movie`, `schema:Movie`, `https://schema.org/Movie`).
    var written: String
}

/// Which terms of a page are schema.org's: the JSON-LD terms that expand to `http(s)://schema.org/`
/// through the active `@context` (a schema.org context, `@vocab` or a prefix bound to schema.org),
/// the Microdata properties of an item typed in schema.org (and properties written as schema.org
/// URLs), and the RDFa types and properties whose IRI is schema.org's. JSON-LD keywords, terms the
/// context defines, compact IRIs with another prefix and other namespaces are not schema.org terms.
enum SchemaOrgTerms {
    /// `http(s)://schema.org/Movie` → `Movie` (scheme and host in any case); nil for any other IRI.
    static func name(inIRI iri: String) -> String? {
        for prefix in ["https://schema.org/", "http://schema.org/"] {
            // More characters than the prefix (counted no further than that).
            guard let end = iri.index(iri.startIndex, offsetBy: prefix.count, limitedBy: iri.endIndex),
                end != iri.endIndex, iri[..<end].lowercased() == prefix
            else { continue }
            return String(iri.dropFirst(prefix.count))
        }
        return nil
    }

    /// HTML link types (the HTML Standard's and the microformats wiki's common `rel` values) that are
    /// not schema.org properties: RDFa expands a `rel` term against the `vocab` like a `property`, so
    /// these are not judged in RDFa (`author`, `license` and `publisher` are schema.org's too: judged).
    static let htmlLinkTypes: Set<String> = [
        "alternate", "amphtml", "apple-touch-icon", "apple-touch-icon-precomposed", "apple-touch-startup-image",
        "archives", "bookmark", "canonical", "chapter", "contents", "copyright", "dns-prefetch", "edit",
        "EditURI", "external", "first", "glossary", "help", "home", "hub", "icon", "index", "last",
        "manifest", "mask-icon", "me", "modulepreload", "next", "nofollow", "noopener", "noreferrer", "opener",
        "pingback", "preconnect", "prefetch", "preload", "prerender", "prev", "profile", "search",
        "shortcut", "shortlink", "sidebar", "sponsored", "start", "stylesheet", "tag", "ugc", "up", "wlwmanifest",
        "image_src", "webmention", "privacy-policy", "terms-of-service", "enclosure", "syndication", "pgpkey",
        "openid.server", "openid.delegate", "openid2.provider", "openid2.local_id", "micropub",
        "authorization_endpoint",
        "token_endpoint",
    ]

    /// The schema.org types among a Microdata item's or RDFa subject's types.
    static func types(ofItem rawTypes: [String]) -> [SchemaOrgTerm] {
        rawTypes.compactMap { raw in name(inIRI: raw).map { SchemaOrgTerm(name: $0, written: raw) } }
    }

    /// The JSON-LD active context, as far as telling schema.org terms apart needs it.
    struct JSONLDContext {
        /// Terms without a prefix expand to schema.org (`"@context": "https://schema.org"`, or
        /// `"@vocab": "https://schema.org/"`).
        var vocabularyIsSchemaOrg = false
        /// schema.org's own context makes `id` and `type` aliases of `@id` and `@type`.
        var aliasesIDAndType = false
        /// Prefixes bound to schema.org (`schema` in schema.org's context).
        var schemaPrefixes: Set<String> = []
        /// Terms and prefixes the page's context defines: their meaning is the page's, not judged.
        var definedTerms: Set<String> = []

        /// The context after an object's `@context` (JSON-LD 1.1 §4.1, simplified: a
        /// string is a remote context, `null` resets, an array applies its members in order, an
        /// object sets `@vocab` and defines terms).
        func applying(_ context: JSONValue, depth: Int = 0) -> JSONLDContext {
            guard depth < 8 else { return self }
            var result = self
            switch context {
            case .null:
                return JSONLDContext()
            case .string:
                // A remote context: schema.org's, or another whose terms are not judged.
                let isSchemaOrg = StructuredDataChecks.namesSchemaOrg(context)
                result.vocabularyIsSchemaOrg = isSchemaOrg
                result.aliasesIDAndType = isSchemaOrg
                if isSchemaOrg { result.schemaPrefixes.insert("schema") }
            case .array(let members):
                for member in members { result = result.applying(member, depth: depth + 1) }
            case .object(let object):
                for member in object {
                    if member.key == "@vocab" {
                        result.vocabularyIsSchemaOrg = StructuredDataChecks.namesSchemaOrg(member.value)
                    } else if !member.key.hasPrefix("@") {
                        let iri = member.value.stringValue ?? member.value.objectValue?["@id"]?.stringValue
                        if let iri, StructuredDataChecks.namesSchemaOrg(.string(iri)), iri.hasSuffix("/") {
                            result.schemaPrefixes.insert(member.key)
                            result.definedTerms.remove(member.key)
                        } else {
                            result.definedTerms.insert(member.key)
                        }
                    }
                }
            default:
                break
            }
            return result
        }

        /// The schema.org term a JSON-LD key or `@type` value stands for, nil when it is not one.
        func term(_ written: String) -> SchemaOrgTerm? {
            if written.hasPrefix("@") || definedTerms.contains(written) { return nil }
            if let name = SchemaOrgTerms.name(inIRI: written) { return SchemaOrgTerm(name: name, written: written) }
            if let colon = written.firstIndex(of: ":") {
                let prefix = String(written[..<colon])
                let name = String(written[written.index(after: colon)...])
                guard schemaPrefixes.contains(prefix), !name.isEmpty, !name.hasPrefix("//") else { return nil }
                return SchemaOrgTerm(name: name, written: written)
            }
            guard vocabularyIsSchemaOrg, !written.isEmpty else { return nil }
            if aliasesIDAndType, written == "id" || written == "type" { return nil }
            return SchemaOrgTerm(name: written, written: written)
        }
    }
}

struct StructuredValue {
    indirect enum Kind {
        /// A JSON string, Microdata text or RDFa literal.
        case text(String)
        /// A JSON number, as written.
        case number(String)
        case bool(Bool)
        /// A Microdata/RDFa URL-valued attribute (`href`, `src` …), resolved.
        case url(String)
        /// A JSON-LD `{"@id": …}` or an RDFa object that is not nested.
        case reference(String)
        case node(StructuredNode)
    }

    var kind: Kind
    var position: SourcePosition
    var line: Int { position.line }
    /// The `data-src` of a lazy-loaded Microdata `<img>` whose value is empty (no `src`).
    var lazySource: String?

    /// The string form of a text, number, URL or reference.
    var text: String? {
        switch kind {
        case .text(let text), .number(let text), .url(let text), .reference(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .node: nil
        }
    }

    var node: StructuredNode? {
        if case .node(let node) = kind { node } else { nil }
    }

    /// The value as a number: a JSON number, or a text that is a plain decimal number (ASCII
    /// digits, an optional sign and one `.`).
    var number: Double? {
        switch kind {
        case .number(let literal): Double(literal)
        case .text(let text): StructuredData.plainNumber(text)
        default: nil
        }
    }

    /// How the value is written in the page, for messages (`"4,5"`, `4.5`, `true`).
    var written: String {
        switch kind {
        case .text(let text), .url(let text): "\"\(StructuredData.shortened(text))\""
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .reference(let id): "{\"@id\": \"\(StructuredData.shortened(id))\"}"
        case .node(let node): "a \(node.typeName)"
        }
    }
}

/// Builds the nodes of a page: caps on nesting and on the number of nodes keep hostile pages cheap.
enum StructuredData {
    static let maximumDepth = 32
    static let maximumNodes = 5_000

    /// schema.org properties that name a party to a work (a Person or Organization who wrote,
    /// published, edited or paid for it): a node named by one is never the page's main entity.
    static let partyProperties: Set<String> = [
        "author", "creator", "publisher", "contributor", "editor", "copyrightHolder", "sourceOrganization",
        "provider", "funder", "sponsor", "maintainer", "producer", "translator", "accountablePerson",
    ]

    struct Collection {
        /// Nodes the page states at the top: JSON-LD top-level objects and `@graph` members,
        /// top-level Microdata items, typed RDFa subjects.
        var topLevel: [StructuredNode] = []
        /// Every node, nested ones included, in document order per syntax.
        var all: [StructuredNode] = []
        /// Ids of nodes referenced from other nodes (`{"@id": …}`, RDFa references, nested `@id`s),
        /// as ``key(_:)`` gives them.
        var referencedIDs: Set<String> = []
        /// Ids of nodes another node names as one of the parties to it (its author, publisher …,
        /// ``partyProperties``), as ``key(_:)`` gives them: who made or published the page, never
        /// what the page is about (Yoast's `@graph` lists the author `Person` beside the `Article`).
        var partyIDs: Set<String> = []
        /// JSON-LD nodes by ``key(_:)`` of their `@id` (top-level, `@graph` members, nested, across
        /// scripts): where a `{"@id": …}` reference leads. When a page describes one id twice, the
        /// description with the most properties wins.
        var nodesByID: [String: StructuredNode] = [:]
        /// The document base: JSON-LD IRIs are resolved against it (`"#organization"`, `"/story/1"`).
        var base: URLResolver

        /// An id as a lookup key: resolved against the document base (blank nodes as written).
        func key(_ id: String) -> String {
            id.hasPrefix("_:") ? id : base.resolve(id)
        }

        /// A URL-valued text (`url`, `@id`) resolved against the document base.
        func resolved(_ text: String) -> String { base.resolve(text) }

        /// The node a value stands for: a nested node, or the node a `{"@id": …}` reference (or a
        /// nested node that has an `@id` but no properties) names on the page; nil for a literal or
        /// a reference to nothing on the page.
        func node(_ value: StructuredValue) -> StructuredNode? {
            switch value.kind {
            case .node(let node):
                guard node.properties.isEmpty, let id = node.id else { return node }
                return nodesByID[key(id)] ?? node
            case .reference(let id):
                return nodesByID[key(id)]
            default:
                return nil
            }
        }
    }

    static func collect(_ page: PageMarkup) -> Collection {
        var builder = Builder(collection: Collection(base: URLResolver(base: page.baseURL)))
        for script in page.jsonLD {
            for value in script.contributedValues {
                builder.topLevelJSONLD(
                    value, position: script.position, depth: 0, context: SchemaOrgTerms.JSONLDContext())
            }
        }
        for item in page.microdata {
            // An orphan item (an itemprop no item claims) is checked, but is no candidate subject.
            let node = builder.node(item, syntax: .microdata, depth: 0)
            if item.orphan { builder.walk(node, depth: 0) } else { builder.addTopLevel(node) }
        }
        for item in page.rdfa {
            let node = builder.node(item, syntax: .rdfa, depth: 0)
            if !node.types.isEmpty { builder.addTopLevel(node) } else { builder.walk(node, depth: 0) }
        }
        return builder.collection
    }

    private struct Builder {
        var collection: Collection
        var budget = StructuredData.maximumNodes

        mutating func topLevelJSONLD(
            _ value: JSONValue, position: SourcePosition, depth: Int, context: SchemaOrgTerms.JSONLDContext
        ) {
            guard depth < StructuredData.maximumDepth, budget > 0 else { return }
            switch value {
            case .array(let members):
                for member in members { topLevelJSONLD(member, position: position, depth: depth + 1, context: context) }
            case .object(let object):
                if let graph = object["@graph"] {
                    let inner = object["@context"].map { context.applying($0) } ?? context
                    topLevelJSONLD(graph, position: position, depth: depth + 1, context: inner)
                    guard object["@type"] != nil else { return }
                }
                if let node = node(object, position: position, depth: depth, context: context) { addTopLevel(node) }
            default:
                return
            }
        }

        mutating func addTopLevel(_ node: StructuredNode) {
            collection.topLevel.append(node)
            walk(node, depth: 0)
        }

        /// Adds `node` and its nested nodes to `all`, and records the ids they reference.
        mutating func walk(_ node: StructuredNode, depth: Int) {
            collection.all.append(node)
            if node.syntax == .jsonLD, let id = node.id {
                let key = collection.key(id)
                if (collection.nodesByID[key]?.properties.count ?? -1) < node.properties.count {
                    collection.nodesByID[key] = node
                }
            }
            guard depth < StructuredData.maximumDepth else { return }
            for property in node.properties {
                let party = StructuredData.partyProperties.contains(property.name)
                for value in property.values {
                    switch value.kind {
                    case .reference(let id):
                        collection.referencedIDs.insert(collection.key(id))
                        if party { collection.partyIDs.insert(collection.key(id)) }
                    case .node(let nested):
                        if let id = nested.id {
                            collection.referencedIDs.insert(collection.key(id))
                            if party { collection.partyIDs.insert(collection.key(id)) }
                        }
                        walk(nested, depth: depth + 1)
                    default: continue
                    }
                }
            }
        }

        mutating func node(
            _ object: JSONObject, position: SourcePosition, depth: Int, context outer: SchemaOrgTerms.JSONLDContext
        ) -> StructuredNode? {
            guard budget > 0 else { return nil }
            budget -= 1
            let context = object["@context"].map { outer.applying($0) } ?? outer
            var rawTypes: [String] = []
            var id: String?
            var properties: [StructuredProperty] = []
            for member in object {
                switch member.key {
                case "@type":
                    for type in member.value.arrayValue ?? [member.value] {
                        if let type = type.stringValue { rawTypes.append(type) }
                    }
                case "@id":
                    id = member.value.stringValue
                default:
                    guard !member.key.hasPrefix("@") else { continue }
                    let values = self.values(member.value, position: position, depth: depth + 1, context: context)
                    properties.append(
                        StructuredProperty(
                            name: StructuredData.shortName(member.key), values: values,
                            schemaOrgName: context.term(member.key)?.name))
                }
            }
            return StructuredNode(
                syntax: .jsonLD, types: rawTypes.map(StructuredData.shortName), rawTypes: rawTypes,
                schemaOrgTypes: rawTypes.compactMap(context.term), id: id, properties: properties, position: position)
        }

        mutating func values(
            _ value: JSONValue, position: SourcePosition, depth: Int, context: SchemaOrgTerms.JSONLDContext
        ) -> [StructuredValue] {
            guard depth < StructuredData.maximumDepth else { return [] }
            switch value {
            case .null: return []
            case .bool(let flag): return [StructuredValue(kind: .bool(flag), position: position)]
            case .number(let literal): return [StructuredValue(kind: .number(literal), position: position)]
            case .string(let text): return [StructuredValue(kind: .text(text), position: position)]
            case .array(let members):
                var result: [StructuredValue] = []
                for member in members {
                    result += values(member, position: position, depth: depth + 1, context: context)
                }
                return result
            case .object(let object):
                if let inner = object["@value"] {
                    return values(inner, position: position, depth: depth + 1, context: context)
                }
                if let inner = object["@list"] ?? object["@set"] {
                    return values(inner, position: position, depth: depth + 1, context: context)
                }
                if object.count == 1, let id = object["@id"]?.stringValue {
                    return [StructuredValue(kind: .reference(id), position: position)]
                }
                guard let node = node(object, position: position, depth: depth, context: context) else { return [] }
                return [StructuredValue(kind: .node(node), position: position)]
            }
        }

        mutating func node(_ item: MarkupItem, syntax: StructuredNode.Syntax, depth: Int) -> StructuredNode {
            budget -= 1
            let schemaOrgTypes = SchemaOrgTerms.types(ofItem: item.types)
            var properties: [StructuredProperty] = []
            for property in item.properties {
                var values: [StructuredValue] = []
                for value in property.values {
                    switch value.kind {
                    case .text(let text):
                        values.append(
                            StructuredValue(kind: .text(text), position: value.position, lazySource: value.lazySource))
                    case .url(let url): values.append(StructuredValue(kind: .url(url), position: value.position))
                    case .typedLiteral(let text, _, _):
                        values.append(StructuredValue(kind: .text(text), position: value.position))
                    case .reference(let id):
                        values.append(StructuredValue(kind: .reference(id), position: value.position))
                    case .item(let nested):
                        guard depth + 1 < StructuredData.maximumDepth, budget > 0 else { continue }
                        values.append(
                            StructuredValue(
                                kind: .node(node(nested, syntax: syntax, depth: depth + 1)), position: value.position))
                    case .cycle:
                        continue
                    }
                }
                properties.append(
                    StructuredProperty(
                        name: StructuredData.shortName(property.name), values: values,
                        schemaOrgName: Self.schemaOrgName(
                            property.name, syntax: syntax, itemIsSchemaOrg: !schemaOrgTypes.isEmpty)))
            }
            return StructuredNode(
                syntax: syntax, types: item.types.map(StructuredData.shortName), rawTypes: item.types,
                schemaOrgTypes: schemaOrgTypes, id: item.id, properties: properties, position: item.position)
        }

        /// The schema.org property a Microdata or RDFa property name stands for: a schema.org IRI
        /// (RDFa expands every name to an IRI), or in Microdata a plain name on an item typed in
        /// schema.org (the item's type sets the vocabulary; any other absolute URL is another one).
        static func schemaOrgName(_ name: String, syntax: StructuredNode.Syntax, itemIsSchemaOrg: Bool) -> String? {
            if let term = SchemaOrgTerms.name(inIRI: name) {
                // Under `vocab`, RDFa turns `rel="stylesheet"` into schema.org/stylesheet: a link
                // type nobody meant as schema.org (the item does not keep which attribute it came from).
                if syntax == .rdfa, SchemaOrgTerms.htmlLinkTypes.contains(term) { return nil }
                return term
            }
            guard syntax == .microdata, itemIsSchemaOrg, !name.contains(":"), !name.isEmpty else { return nil }
            return name
        }
    }

    /// `https://schema.org/Movie`, `http://schema.org/Movie`, `schema:Movie` → `Movie`.
    static func shortName(_ iri: String) -> String {
        for prefix in ["https://schema.org/", "http://schema.org/", "schema:"] where iri.hasPrefix(prefix) {
            return String(iri.dropFirst(prefix.count))
        }
        return iri
    }

    /// A plain decimal number: optional sign, ASCII digits with at most one `.`, nothing else
    /// (surrounding whitespace allowed).
    static func plainNumber(_ text: String) -> Double? {
        let trimmed = text.trimmedWhitespace
        var digits = 0
        var dots = 0
        for (offset, character) in trimmed.enumerated() {
            switch character {
            case "0"..."9": digits += 1
            case ".": dots += 1
            case "-" where offset == 0, "+" where offset == 0: continue
            default: return nil
            }
        }
        guard digits > 0, dots <= 1 else { return nil }
        return Double(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed)
    }

    /// A non-negative integer: a JSON number with an integral value, or ASCII digits.
    static func isCount(_ value: StructuredValue) -> Bool {
        switch value.kind {
        case .number(let literal):
            guard let number = Double(literal) else { return false }
            // In [0, 9e18): the Int holds it.
            return number >= 0 && number < 9e18 && Double(Int(number)) == number  // numeric-conversion: checked
        case .text(let text):
            let trimmed = text.trimmedWhitespace
            return !trimmed.isEmpty && trimmed.allSatisfy { $0.isASCII && $0.isNumber }
        default:
            return false
        }
    }

    /// At most 100 characters, for messages and excerpts.
    static func shortened(_ text: String) -> String {
        // More than 100 characters, counted no further than that (and not at all when the bytes
        // are no more than 100).
        guard text.utf8.count > 100, text.index(text.startIndex, offsetBy: 101, limitedBy: text.endIndex) != nil
        else { return text }
        return String(text.prefix(99)) + "…"
    }
}

extension String {
    var trimmedWhitespace: String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
