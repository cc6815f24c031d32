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
    /// The column of the tag it was read from (a JSON-LD entity's script tag, a Microdata or RDFa
    /// item's element), as ``MarkupExtraction/SourcePosition`` counts it; nil when not known.
    public var column: Int? = nil

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
        var graph = JSONLDGraph(page)
        for script in page.jsonLD {
            for value in script.contributedValues {
                collectJSONLD(value, line: script.line, column: script.column, graph: &graph, into: &result)
            }
        }
        // Orphan items (an itemprop no item claims) are a property of something, not a subject.
        result += page.microdata.filter { !$0.orphan }.map { Entity(item: $0, syntax: .microdata, lookup: [:]) }
        let rdfaByID = Dictionary(
            page.rdfa.compactMap { item in item.id.map { ($0, item) } }, uniquingKeysWith: { first, _ in first })
        result += page.rdfa.filter { !$0.types.isEmpty }.map { Entity(item: $0, syntax: .rdfa, lookup: rdfaByID) }
        return result
    }

    private static func collectJSONLD(
        _ value: JSONValue, line: Int, column: Int?, graph: inout JSONLDGraph, into result: inout [Entity]
    ) {
        switch value {
        case .array(let members):
            for member in members { collectJSONLD(member, line: line, column: column, graph: &graph, into: &result) }
        case .object(let object):
            if let inner = object["@graph"] {
                collectJSONLD(inner, line: line, column: column, graph: &graph, into: &result)
                if object["@type"] == nil { return }
            }
            result.append(Entity(jsonLD: object, line: line, column: column, depth: 0, graph: &graph))
        default:
            return
        }
    }

    /// The JSON-LD nodes of a page by `@id` (top-level, `@graph` members and nested objects, across
    /// scripts; ids resolved against the document base), so a `{"@id": …}` value becomes the node
    /// it names. A reference is followed one hop (references inside the node it leads to stay
    /// ids), and at most `budget` times per page, so graphs that reference each other stay cheap;
    /// each node is built into an `Entity` once and shared by every reference to it (a node of
    /// 100,000 properties referenced 1,000 times is built once, not 1,000 times).
    struct JSONLDGraph {
        static let maximumExpansions = 1_000

        var nodes: [String: JSONObject] = [:]
        /// Nodes already built, by key.
        var built: [String: Entity] = [:]
        let base: URLResolver
        var budget = JSONLDGraph.maximumExpansions

        init(_ page: PageMarkup) {
            base = URLResolver(base: page.baseURL)
            var pending: [(JSONValue, Int)] = page.jsonLD.flatMap { $0.contributedValues.map { ($0, 0) } }
            var visited = 0
            while let (value, depth) = pending.popLast(), visited < 20_000 {
                // A branch too deep is left out; the other scripts' nodes are still indexed.
                guard depth < 32 else { continue }
                visited += 1
                switch value {
                case .array(let members): pending += members.map { ($0, depth + 1) }
                case .object(let object):
                    if let id = object["@id"]?.stringValue, object.count > 1 {
                        let key = self.key(id)
                        if (nodes[key]?.count ?? 0) < object.count { nodes[key] = object }
                    }
                    pending += object.map { ($0.value, depth + 1) }
                default: continue
                }
            }
        }

        func key(_ id: String) -> String { id.hasPrefix("_:") ? id : base.resolve(id) }

        /// What `id` names, if the page describes it and the budget allows one more expansion:
        /// the entity built for an earlier reference, or the node to build it from.
        mutating func target(_ id: String) -> (key: String, built: Entity?, node: JSONObject)? {
            let key = key(id)
            guard budget > 0, let node = nodes[key] else { return nil }
            budget -= 1
            return (key, built[key], node)
        }
    }

    init(
        jsonLD object: JSONObject, line: Int, column: Int?, depth: Int, graph: inout JSONLDGraph,
        followsReferences: Bool = true
    ) {
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
                let converted = Self.values(
                    fromJSONLD: value, line: line, column: column, depth: depth + 1, graph: &graph,
                    followsReferences: followsReferences)
                if !converted.isEmpty { properties[Self.shortName(key), default: []] += converted }
            }
        }
        self.init(types: types, id: id, properties: properties, syntax: .jsonLD, line: line, column: column)
    }

    private static func values(
        fromJSONLD value: JSONValue, line: Int, column: Int?, depth: Int, graph: inout JSONLDGraph,
        followsReferences: Bool
    ) -> [Value] {
        guard depth < 32 else { return [] }
        switch value {
        case .null: return []
        case .bool(let flag): return [.text(flag ? "true" : "false")]
        case .number(let literal): return [.text(literal)]
        case .string(let text): return [.text(text)]
        case .array(let members):
            var result: [Value] = []
            for member in members {
                result += values(
                    fromJSONLD: member, line: line, column: column, depth: depth + 1, graph: &graph,
                    followsReferences: followsReferences)
            }
            return result
        case .object(let object):
            if let inner = object["@value"] {
                return values(
                    fromJSONLD: inner, line: line, column: column, depth: depth + 1, graph: &graph,
                    followsReferences: followsReferences)
            }
            if object.count == 1, let id = object["@id"]?.stringValue {
                guard followsReferences, let target = graph.target(id) else { return [.text(id)] }
                if let built = target.built { return [.entity(built)] }
                let entity = Entity(
                    jsonLD: target.node, line: line, column: column, depth: depth, graph: &graph,
                    followsReferences: false)
                graph.built[target.key] = entity
                return [.entity(entity)]
            }
            return [
                .entity(
                    Entity(
                        jsonLD: object, line: line, column: column, depth: depth, graph: &graph,
                        followsReferences: followsReferences))
            ]
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
            types: item.types.map(Self.shortName), id: item.id, properties: properties, syntax: syntax, line: item.line,
            column: item.column)
    }
}
