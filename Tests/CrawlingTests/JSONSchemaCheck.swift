import Foundation
import LenientJSON

/// A JSON Schema (draft 2020-12) check for the keywords docs/report.schema.json uses: `type`,
/// `const`, `enum`, `required`, `properties`, `additionalProperties`, `items`, `minimum`,
/// `pattern`, `anyOf`, `$ref` to `#/$defs/…`. Returns where the value breaks the schema, one line
/// per problem (empty: valid). Unknown keywords are ignored (they only annotate).
struct JSONSchemaCheck {
    let root: JSONValue

    func problems(_ value: JSONValue) -> [String] {
        var found: [String] = []
        check(value, against: root, at: "$", into: &found)
        return found
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into found: inout [String]) {
        if let reference = schema["$ref"]?.stringValue {
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            guard let target = root["$defs"]?[name] else {
                found.append("\(path): unknown $ref \(reference)")
                return
            }
            check(value, against: target, at: path, into: &found)
        }
        if let options = schema["anyOf"]?.arrayValue {
            let passes = options.contains { option in
                var scratch: [String] = []
                check(value, against: option, at: path, into: &scratch)
                return scratch.isEmpty
            }
            if !passes { found.append("\(path): matches none of anyOf") }
        }
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
        if let minimum = schema["minimum"]?.numberValue, let number = value.numberValue, number < minimum {
            found.append("\(path): \(number) < \(minimum)")
        }
        if let pattern = schema["pattern"]?.stringValue, let text = value.stringValue,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            found.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let object = value.objectValue {
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
        if let array = value.arrayValue, let items = schema["items"] {
            for (index, element) in array.enumerated() {
                check(element, against: items, at: "\(path)[\(index)]", into: &found)
            }
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
