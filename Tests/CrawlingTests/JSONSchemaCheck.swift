import Foundation
import LenientJSON

/// A JSON Schema check for the keywords docs/report.schema.json (draft 2020-12) and the SARIF
/// 2.1.0 schema (draft-04) use: `type`, `const`, `enum`, `required`, `properties`,
/// `additionalProperties`, `items`, `minItems`, `uniqueItems`, `minimum`, `maximum`, `pattern`,
/// `anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`, `$ref` to `#/$defs/…` or `#/definitions/…`, and
/// `format` (`uri`, `uri-reference`, `date-time`: the checks Python's `jsonschema` makes with its
/// `FormatChecker`). Returns where the value breaks the schema, one line per problem (empty:
/// valid). Unknown keywords are ignored (they only annotate).
struct JSONSchemaCheck {
    let root: JSONValue

    func problems(_ value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: root, at: "$", into: &found)
        return found
    }

    private func passes(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        var scratch: [String] = []
        check(value, against: schema, at: path, into: &scratch)
        return scratch
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into found: inout [String]) {
        if let reference = schema["$ref"]?.stringValue {
            guard let target = resolve(reference) else {
                found.append("\(path): unknown $ref \(reference)")
                return
            }
            check(value, against: target, at: path, into: &found)
        }
        combinators(value, schema, at: path, into: &found)
        if let constant = schema["const"], constant != value {
            found.append("\(path): not \(constant.serialized(pretty: false))")
        }
        if let choices = schema["enum"]?.arrayValue, !choices.contains(value) {
            found.append("\(path): \(value.serialized(pretty: false)) not in enum")
        }
        if let type = schema["type"] {
            let allowed = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
            if !allowed.contains(where: { Self.has(value, type: $0) }) {
                found.append(
                    "\(path): \(value.serialized(pretty: false).prefix(60)) is not \(allowed.joined(separator: "|"))")
                return
            }
        }
        if let number = value.numberValue {
            if let minimum = schema["minimum"]?.numberValue, number < minimum {
                found.append("\(path): \(number) < \(minimum)")
            }
            if let maximum = schema["maximum"]?.numberValue, number > maximum {
                found.append("\(path): \(number) > \(maximum)")
            }
        }
        if let text = value.stringValue { checkString(text, schema, at: path, into: &found) }
        if let object = value.objectValue { checkObject(object, schema, at: path, into: &found) }
        if let array = value.arrayValue { checkArray(array, schema, at: path, into: &found) }
    }

    private func resolve(_ reference: String) -> JSONValue? {
        for prefix in ["#/$defs/", "#/definitions/"] where reference.hasPrefix(prefix) {
            return root[String(prefix.dropFirst(2).dropLast())]?[String(reference.dropFirst(prefix.count))]
        }
        return nil
    }

    /// `anyOf`, `oneOf`, `allOf`, `if`/`then`/`else`.
    private func combinators(_ value: JSONValue, _ schema: JSONValue, at path: String, into found: inout [String]) {
        if let options = schema["anyOf"]?.arrayValue {
            let outcomes = options.map { passes(value, $0, at: path) }
            if !outcomes.contains(where: \.isEmpty) {
                // The closest option's problems say what is wrong.
                let closest = outcomes.min { $0.count < $1.count } ?? []
                found.append("\(path): matches none of anyOf (closest: \(closest.prefix(3).joined(separator: "; ")))")
            }
        }
        if let options = schema["oneOf"]?.arrayValue {
            let matching = options.filter { passes(value, $0, at: path).isEmpty }.count
            if matching != 1 { found.append("\(path): matches \(matching) of oneOf, not 1") }
        }
        for part in schema["allOf"]?.arrayValue ?? [] {
            check(value, against: part, at: path, into: &found)
        }
        if let condition = schema["if"] {
            let branch = passes(value, condition, at: path).isEmpty ? schema["then"] : schema["else"]
            if let branch { check(value, against: branch, at: path, into: &found) }
        }
    }

    private func checkString(_ text: String, _ schema: JSONValue, at path: String, into found: inout [String]) {
        if let pattern = schema["pattern"]?.stringValue, text.range(of: pattern, options: .regularExpression) == nil {
            found.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let format = schema["format"]?.stringValue, !Self.conforms(text, to: format) {
            found.append("\(path): \"\(text.prefix(80))\" is not a \(format)")
        }
    }

    private func checkObject(_ object: JSONObject, _ schema: JSONValue, at path: String, into found: inout [String]) {
        for key in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[key] == nil {
            found.append("\(path): missing \"\(key)\"")
        }
        let properties = schema["properties"]?.objectValue
        for member in object.members {
            if let property = properties?[member.key] {
                check(member.value, against: property, at: "\(path).\(member.key)", into: &found)
            } else if let additional = schema["additionalProperties"], additional.objectValue != nil {
                check(member.value, against: additional, at: "\(path).\(member.key)", into: &found)
            } else if schema["additionalProperties"]?.boolValue == false {
                found.append("\(path): unexpected \"\(member.key)\"")
            }
        }
    }

    private func checkArray(_ array: [JSONValue], _ schema: JSONValue, at path: String, into found: inout [String]) {
        if let minimum = schema["minItems"]?.intValue, array.count < minimum {
            found.append("\(path): \(array.count) items, fewer than \(minimum)")
        }
        if schema["uniqueItems"]?.boolValue == true {
            var seen: [JSONValue] = []
            for element in array {
                if seen.contains(element) {
                    found.append("\(path): \(element.serialized(pretty: false).prefix(60)) repeated (uniqueItems)")
                    break
                }
                seen.append(element)
            }
        }
        if let items = schema["items"] {
            for (index, element) in array.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", into: &found)
            }
        }
    }

    /// The formats the SARIF schema names. `uri-reference` and `uri` follow RFC 3986 (a `uri` has
    /// a scheme); `date-time` is RFC 3339's.
    static func conforms(_ text: String, to format: String) -> Bool {
        switch format {
        case "uri-reference": URIReferenceGrammar.isReference(text)
        case "uri": URIReferenceGrammar.isReference(text) && URIReferenceGrammar.hasScheme(text)
        case "date-time":
            text.range(
                of: #"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#,
                options: .regularExpression) != nil
        default: true
        }
    }

    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch type {
        case "object": value.objectValue != nil
        case "array": value.arrayValue != nil
        case "string": value.stringValue != nil
        case "boolean": value.boolValue != nil
        case "null": value.isNull
        case "integer": value.intValue != nil
        case "number": value.numberValue != nil
        default: true
        }
    }
}

/// RFC 3986's URI-reference grammar (§4.1), written from the RFC's ABNF as one regular expression
/// per part, independent of the writer's check (`SARIFLog`): a URI (`scheme ":" hier-part`) or a
/// relative reference, then an optional query and fragment.
enum URIReferenceGrammar {
    private static let unreserved = #"A-Za-z0-9\-._~"#
    private static let subDelims = #"!$&'()*+,;="#
    private static let encoded = #"%[0-9A-Fa-f]{2}"#
    private static var pchar: String { #"(?:[\#(unreserved)\#(subDelims):@]|\#(encoded))"# }
    private static var authority: String {
        #"(?:(?:[\#(unreserved)\#(subDelims):]|\#(encoded))*@)?"#
            + #"(?:\[[0-9A-Fa-f:.vV\#(unreserved)\#(subDelims)]+\]|(?:[\#(unreserved)\#(subDelims)]|\#(encoded))*)"#
            + #"(?::[0-9]*)?"#
    }
    private static var tail: String { #"(?:\?(?:\#(pchar)|[/?])*)?(?:#(?:\#(pchar)|[/?])*)?$"# }
    private static var absolute: String {
        #"^[A-Za-z][A-Za-z0-9+\-.]*:(?://\#(authority)(?:/\#(pchar)*)*|/?(?:\#(pchar)+(?:/\#(pchar)*)*)?)"# + tail
    }
    private static var relative: String {
        let segmentWithoutColon = #"(?:[\#(unreserved)\#(subDelims)@]|\#(encoded))+"#
        return
            #"^(?://\#(authority)(?:/\#(pchar)*)*|/(?:\#(pchar)+(?:/\#(pchar)*)*)?|\#(segmentWithoutColon)(?:/\#(pchar)*)*)?"#
            + tail
    }

    static func isReference(_ text: String) -> Bool {
        text.range(of: absolute, options: .regularExpression) != nil
            || text.range(of: relative, options: .regularExpression) != nil
    }

    static func hasScheme(_ text: String) -> Bool {
        text.range(of: #"^[A-Za-z][A-Za-z0-9+\-.]*:"#, options: .regularExpression) != nil
    }
}
