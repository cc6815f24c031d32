/// Builds Microdata items from the collector's pruned element tree, following the WHATWG HTML
/// "Microdata" algorithms: top-level items are `itemscope` elements without `itemprop`; an item's
/// properties are found by crawling its subtree and its `itemref` targets (each element once, so
/// reference cycles end), sorted in tree order; a nested item already on the path is "ERROR".
struct MicrodataBuilder {
    /// How non-`meta` elements with a `content` attribute are valued.
    let contentAttributeOnAnyElement: Bool
    let nodes: [MarkupCollector.MicrodataNode]
    let collector: MarkupCollector
    let resolver: URLResolver
    private let children: [[Int32]]
    private let elementsByID: [String: Int32]

    init(collector: MarkupCollector, resolver: URLResolver, contentAttributeOnAnyElement: Bool) {
        self.collector = collector
        self.nodes = collector.microdataNodes
        self.resolver = resolver
        self.contentAttributeOnAnyElement = contentAttributeOnAnyElement
        var children = [[Int32]](repeating: [], count: nodes.count)
        var elementsByID: [String: Int32] = [:]
        for (index, node) in nodes.enumerated() {
            if node.parent >= 0 { children[Int(node.parent)].append(Int32(index)) }
            if let id = node.id, elementsByID[id] == nil { elementsByID[id] = Int32(index) }
        }
        self.children = children
        self.elementsByID = elementsByID
    }

    /// Items nested deeper than this are left out (hostile pages nest thousands of levels; the
    /// builders below recurse on worker threads with small stacks).
    static let maximumNesting = 64

    /// Items built per page at most, nested ones included. WHATWG's algorithm expands an item
    /// each time it is reached (its memory only stops cycles along one path), so items that
    /// reference each other through `itemref` expand factorially: ten such elements in 881 bytes
    /// made 10 GB. Past the budget a nested item's value is "ERROR", as for a cycle.
    static let maximumItems = 10_000

    /// The top-level items, and whether `maximumItems` cut nested ones short. With `orphans`, an
    /// `itemscope` element that has an `itemprop` but that no item claims (`<meta itemprop="speakable"
    /// itemscope …>` in `<head>`, `itemprop=""` on a comment) is a top-level item too, marked
    /// `orphan`, in document order, as extruct and Google's tools read it; WHATWG drops it.
    func topLevelItems(orphans: Bool = true) -> (items: [MarkupItem], truncated: Bool) {
        var budget = Self.maximumItems
        let covered = orphans ? coverage() : []
        let items = nodes.indices.compactMap { index -> MarkupItem? in
            let node = nodes[index]
            guard node.itemscope else { return nil }
            let orphan = node.itemprop != nil
            guard !orphan || (orphans && !covered[index]) else { return nil }
            budget -= 1
            var item = item(at: Int32(index), memory: [], budget: &budget)
            item.orphan = orphan
            return item
        }
        return (items, budget < 0)
    }

    /// `itemprop` elements no item claims: no `itemscope` ancestor and not reached through any
    /// `itemref` (WHATWG drops them; a page usually meant them to belong to an item), in order.
    func orphanProperties() -> [Int32] {
        let covered = coverage()
        return nodes.indices.compactMap { index in
            nodes[index].itemprop != nil && !covered[index] ? Int32(index) : nil
        }
    }

    /// For each element, whether some item's crawl reaches it (a descendant of an `itemscope`, or
    /// reached through an `itemref`).
    private func coverage() -> [Bool] {
        var covered = [Bool](repeating: false, count: nodes.count)
        var pending: [Int32] = []
        for (index, node) in nodes.enumerated() where node.itemscope {
            pending += children[index]
            for id in (node.itemref ?? "").split(whereSeparator: \.isASCIIWhitespace) {
                if let target = elementsByID[String(id)] { pending.append(target) }
            }
        }
        while let current = pending.popLast() {
            guard !covered[Int(current)] else { continue }
            covered[Int(current)] = true
            if !nodes[Int(current)].itemscope { pending += children[Int(current)] }
        }
        return covered
    }

    private func item(at root: Int32, memory: Set<Int32>, budget: inout Int) -> MarkupItem {
        let node = nodes[Int(root)]
        var pending: [Int32] = children[Int(root)]
        if let itemref = node.itemref {
            for id in itemref.split(whereSeparator: \.isASCIIWhitespace) {
                guard let target = elementsByID[String(id)] else { continue }
                let referenced = nodes[Int(target)]
                if referenced.itemscope, referenced.itemprop == nil, target != root {
                    // A referenced top-level item lends its properties (extruct and the schema.org
                    // samples expect this; WHATWG's crawl would stop at its itemscope).
                    pending += children[Int(target)]
                } else {
                    pending.append(target)
                }
            }
        }
        var visited: Set<Int32> = [root]
        var found: [Int32] = []
        while let current = pending.popLast() {
            guard visited.insert(current).inserted else { continue }
            let candidate = nodes[Int(current)]
            if !candidate.itemscope { pending += children[Int(current)] }
            if candidate.itemprop != nil { found.append(current) }
        }
        found.sort()

        var properties: [ItemProperty] = []
        var positions: [String: Int] = [:]
        let innerMemory = memory.union([root])
        for index in found {
            let element = nodes[Int(index)]
            if element.itemscope, innerMemory.count >= Self.maximumNesting { continue }
            let value = self.value(of: index, memory: innerMemory, budget: &budget)
            var names: Set<String> = []
            for name in (element.itemprop ?? "").split(whereSeparator: \.isASCIIWhitespace) {
                let name = String(name)
                // WHATWG: an element's property names are a set.
                guard names.insert(name).inserted else { continue }
                if let position = positions[name] {
                    properties[position].values.append(value)
                } else {
                    positions[name] = properties.count
                    properties.append(ItemProperty(name: name, values: [value]))
                }
            }
        }
        let types = (node.itemtype ?? "").split(whereSeparator: \.isASCIIWhitespace).map(String.init)
        let id = node.itemid.map { resolver.resolveStructuredDataURL($0) }
        return MarkupItem(types: types, id: id, properties: properties, line: node.line, column: node.column)
    }

    private func value(of index: Int32, memory: Set<Int32>, budget: inout Int) -> ItemValue {
        let node = nodes[Int(index)]
        if node.itemscope {
            budget -= 1
            if memory.contains(index) || budget < 0 { return ItemValue(.cycle, line: node.line, column: node.column) }
            return ItemValue(
                .item(item(at: index, memory: memory, budget: &budget)), line: node.line, column: node.column)
        }
        // WHATWG's "property value": the element's own attribute decides (`content` on <meta>,
        // `src`, `href`, `data`, `value`, `datetime`), else its text. The lenient reading of
        // `content` on other elements (schema.org's, Google's, extruct's) stands in for the text
        // only: it never wins over a `datetime`, `href`, `src`, `data` or `value` (issue 33).
        switch node.tag {
        case .meta:
            return ItemValue(.text(node.valueAttribute ?? ""), line: node.line, column: node.column)
        case .audio, .embed, .iframe, .img, .source, .track, .video, .a, .area, .link, .object:
            guard let raw = node.valueAttribute else {
                var empty = ItemValue(.text(""), line: node.line, column: node.column)
                empty.lazySource = node.lazySource
                return empty
            }
            return ItemValue(.url(resolver.resolveStructuredDataURL(raw)), line: node.line, column: node.column)
        case .data, .meter:
            return ItemValue(.text(node.valueAttribute ?? ""), line: node.line, column: node.column)
        case .time:
            if let datetime = node.valueAttribute {
                return ItemValue(.text(datetime), line: node.line, column: node.column)
            }
            return textValue(of: node)
        default:
            return textValue(of: node)
        }
    }

    /// An element valued by its text: the text, or its `content` attribute in the lenient reading.
    private func textValue(of node: MarkupCollector.MicrodataNode) -> ItemValue {
        if contentAttributeOnAnyElement, let content = node.contentAttribute {
            return ItemValue(.text(content), line: node.line, column: node.column)
        }
        return ItemValue(.text(collector.text(node.textRange)), line: node.line, column: node.column)
    }
}
