import LenientJSON
public import MarkupExtraction

/// A schema.org entity from any of the three syntaxes, with schema.org IRIs shortened
/// (`https://schema.org/Movie` → `Movie`, `schema:name` → `name`), so the builder reads one shape.
public struct Entity: Sendable, Hashable {
    public enum Syntax: String, Sendable, Hashable {
        case jsonLD = "json-ld"
        case microdata
        case rdfa
    }

    public indirect enum Value: Sendable, Hashable {
        case text(String)
        case entity(Entity)
    }

    public var types: [String]
    public var id: String?
    public var properties: [String: [Value]]
    public var syntax: Syntax
    public var line: Int

    public func values(_ name: String) -> [Value] { properties[name] ?? [] }

    /// The first text value of a property (an entity's `name`, `@id` or `url` stands in for it).
    public func text(_ name: String) -> String? {
        for value in values(name) {
            switch value {
            case .text(let text) where !text.trimmingWhitespace().isEmpty: return text.trimmingWhitespace()
            case .entity(let entity):
                if let text = entity.text("name") ?? entity.text("url") ?? entity.id { return text }
            default: continue
            }
        }
        return nil
    }

    public func texts(_ name: String) -> [String] {
        values(name).compactMap { value in
            switch value {
            case .text(let text): text.trimmingWhitespace().isEmpty ? nil : text.trimmingWhitespace()
            case .entity(let entity): entity.text("name")
            }
        }
    }

    public func entity(_ name: String) -> Entity? {
        for case .entity(let entity) in values(name) { return entity }
        return nil
    }

    public func isA(_ type: String) -> Bool { types.contains(type) }

    /// `Movie.name`-style path for provenance.
    public func path(_ property: String) -> String { "\(types.first ?? "Thing").\(property)" }

    static func shortName(_ iri: String) -> String {
        for prefix in ["https://schema.org/", "http://schema.org/", "schema:"] where iri.hasPrefix(prefix) {
            return String(iri.dropFirst(prefix.count))
        }
        return iri
    }
}

extension Entity {
    /// Every top-level entity on the page: JSON-LD first, then Microdata, then RDFa.
    public static func all(in page: PageMarkup) -> [Entity] {
        var result: [Entity] = []
        for script in page.jsonLD {
            for value in script.contributedValues {
                collectJSONLD(value, line: script.line, into: &result)
            }
        }
        result += page.microdata.map { Entity(item: $0, syntax: .microdata, lookup: [:]) }
        let rdfaByID = Dictionary(
            page.rdfa.compactMap { item in item.id.map { ($0, item) } }, uniquingKeysWith: { first, _ in first })
        result += page.rdfa.filter { !$0.types.isEmpty }.map { Entity(item: $0, syntax: .rdfa, lookup: rdfaByID) }
        return result
    }

    private static func collectJSONLD(_ value: JSONValue, line: Int, into result: inout [Entity]) {
        switch value {
        case .array(let members):
            for member in members { collectJSONLD(member, line: line, into: &result) }
        case .object(let object):
            if let graph = object["@graph"] {
                collectJSONLD(graph, line: line, into: &result)
                if object["@type"] == nil { return }
            }
            result.append(Entity(jsonLD: object, line: line, depth: 0))
        default:
            return
        }
    }

    init(jsonLD object: JSONObject, line: Int, depth: Int) {
        var types: [String] = []
        var id: String?
        var properties: [String: [Value]] = [:]
        for (key, value) in object {
            switch key {
            case "@type":
                for type in value.arrayValue ?? [value] {
                    if let type = type.stringValue { types.append(Self.shortName(type)) }
                }
            case "@id":
                id = value.stringValue
            case "@context", "@graph":
                continue
            default:
                guard !key.hasPrefix("@") else { continue }
                let converted = Self.values(fromJSONLD: value, line: line, depth: depth + 1)
                if !converted.isEmpty { properties[Self.shortName(key), default: []] += converted }
            }
        }
        self.init(types: types, id: id, properties: properties, syntax: .jsonLD, line: line)
    }

    private static func values(fromJSONLD value: JSONValue, line: Int, depth: Int) -> [Value] {
        guard depth < 32 else { return [] }
        switch value {
        case .null: return []
        case .bool(let flag): return [.text(flag ? "true" : "false")]
        case .number(let literal): return [.text(literal)]
        case .string(let text): return [.text(text)]
        case .array(let members): return members.flatMap { values(fromJSONLD: $0, line: line, depth: depth + 1) }
        case .object(let object):
            if let inner = object["@value"] { return values(fromJSONLD: inner, line: line, depth: depth + 1) }
            if object.count == 1, let id = object["@id"]?.stringValue { return [.text(id)] }
            return [.entity(Entity(jsonLD: object, line: line, depth: depth))]
        }
    }

    init(item: MarkupItem, syntax: Syntax, lookup: [String: MarkupItem], depth: Int = 0) {
        var properties: [String: [Value]] = [:]
        for property in item.properties {
            let name = Self.shortName(property.name)
            for value in property.values {
                switch value.kind {
                case .text(let text), .url(let text): properties[name, default: []].append(.text(text))
                case .typedLiteral(let text, _, _): properties[name, default: []].append(.text(text))
                case .item(let nested):
                    properties[name, default: []].append(
                        .entity(Entity(item: nested, syntax: syntax, lookup: lookup, depth: depth + 1)))
                case .reference(let id):
                    if depth < 8, let target = lookup[id], target.id != item.id {
                        properties[name, default: []].append(
                            .entity(Entity(item: target, syntax: syntax, lookup: lookup, depth: depth + 1)))
                    } else {
                        properties[name, default: []].append(.text(id))
                    }
                case .cycle:
                    continue
                }
            }
        }
        self.init(
            types: item.types.map(Self.shortName), id: item.id, properties: properties, syntax: syntax, line: item.line)
    }
}
