/// RDFa 1.1 processing (Core §7.5, with the HTML+RDFa rules for `head`/`body`, `<time>` and the
/// initial context) restricted to the RDFa Lite attributes plus `about`, `content`, `datatype`,
/// `href`, `src` and `datetime`. `rel`/`rev` chaining is not processed (not part of RDFa Lite).
///
/// The triples come out in the Microdata item shape the extract contract uses: one item per
/// subject (`id` is the subject IRI or `_:label`), full predicate IRIs as property names, types
/// from `rdf:type`; a blank node that is the object of exactly one triple is nested in place,
/// every other object is `{"@id": …}`; typed literals carry their datatype.
struct RDFaBuilder {
    enum Term: Hashable {
        case iri(String)
        case blank(Int)

        var id: String {
            switch self {
            case .iri(let iri): iri
            case .blank(let number): "_:b\(number)"
            }
        }
    }

    enum Object: Hashable {
        case term(Term)
        case literal(String, datatype: String?, language: String?)
    }

    struct Triple {
        var subject: Term
        var predicate: String
        var object: Object
        var line: Int
        var column: Int?
    }

    static let rdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    static let usesVocabulary = "http://www.w3.org/ns/rdfa#usesVocabulary"
    static let xsd = "http://www.w3.org/2001/XMLSchema#"

    /// RDFa Core 1.1 initial context: prefixes (https://www.w3.org/2011/rdfa-context/rdfa-1.1).
    static let initialPrefixes: [String: String] = [
        "as": "https://www.w3.org/ns/activitystreams#", "cc": "http://creativecommons.org/ns#",
        "csvw": "http://www.w3.org/ns/csvw#", "ctag": "http://commontag.org/ns#",
        "dc": "http://purl.org/dc/terms/", "dc11": "http://purl.org/dc/elements/1.1/",
        "dcat": "http://www.w3.org/ns/dcat#", "dcterms": "http://purl.org/dc/terms/",
        "dqv": "http://www.w3.org/ns/dqv#", "duv": "https://www.w3.org/ns/duv#",
        "foaf": "http://xmlns.com/foaf/0.1/", "gr": "http://purl.org/goodrelations/v1#",
        "grddl": "http://www.w3.org/2003/g/data-view#", "ical": "http://www.w3.org/2002/12/cal/icaltzd#",
        "ldp": "http://www.w3.org/ns/ldp#", "ma": "http://www.w3.org/ns/ma-ont#",
        "oa": "http://www.w3.org/ns/oa#", "og": "http://ogp.me/ns#", "odrl": "http://www.w3.org/ns/odrl/2/",
        "org": "http://www.w3.org/ns/org#", "owl": "http://www.w3.org/2002/07/owl#",
        "prov": "http://www.w3.org/ns/prov#", "qb": "http://purl.org/linked-data/cube#",
        "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdfa": "http://www.w3.org/ns/rdfa#",
        "rdfs": "http://www.w3.org/2000/01/rdf-schema#", "rev": "http://purl.org/stuff/rev#",
        "rif": "http://www.w3.org/2007/rif#", "rr": "http://www.w3.org/ns/r2rml#",
        "schema": "http://schema.org/", "sd": "http://www.w3.org/ns/sparql-service-description#",
        "sioc": "http://rdfs.org/sioc/ns#", "skos": "http://www.w3.org/2004/02/skos/core#",
        "skosxl": "http://www.w3.org/2008/05/skos-xl#", "sosa": "http://www.w3.org/ns/sosa/",
        "ssn": "http://www.w3.org/ns/ssn/", "time": "http://www.w3.org/2006/time#",
        "v": "http://rdf.data-vocabulary.org/#", "vcard": "http://www.w3.org/2006/vcard/ns#",
        "void": "http://rdfs.org/ns/void#", "wdr": "http://www.w3.org/2007/05/powder#",
        "wdrs": "http://www.w3.org/2007/05/powder-s#", "xhv": "http://www.w3.org/1999/xhtml/vocab#",
        "xml": "http://www.w3.org/XML/1998/namespace", "xsd": "http://www.w3.org/2001/XMLSchema#",
    ]

    /// RDFa Core 1.1 initial context: terms.
    static let initialTerms: [String: String] = [
        "describedby": "http://www.w3.org/2007/05/powder-s#describedby",
        "license": "http://www.w3.org/1999/xhtml/vocab#license",
        "role": "http://www.w3.org/1999/xhtml/vocab#role",
    ]

    private struct IncompleteTriple {
        var predicate: String
        var forward: Bool
    }

    private struct Context {
        var parentSubject: Term
        var parentObject: Term?
        var vocabulary: String?
        var prefixes: [String: String]
        var language: String?
        var incomplete: [IncompleteTriple] = []
    }

    static let xhtmlVocabulary = "http://www.w3.org/1999/xhtml/vocab#"
    static let rdfaCopy = "http://www.w3.org/ns/rdfa#copy"
    static let rdfaPattern = "http://www.w3.org/ns/rdfa#Pattern"

    let nodes: [MarkupCollector.RDFaNode]
    let collector: MarkupCollector
    let resolver: URLResolver
    private let children: [[Int32]]
    private var blankNodes = 0
    private(set) var triples: [Triple] = []

    init(collector: MarkupCollector, resolver: URLResolver) {
        self.collector = collector
        self.nodes = collector.rdfaNodes
        self.resolver = resolver
        var children = [[Int32]](repeating: [], count: nodes.count)
        for (index, node) in nodes.enumerated() where node.parent >= 0 {
            children[Int(node.parent)].append(Int32(index))
        }
        self.children = children
    }

    /// Runs the processing over every root of the pruned tree.
    mutating func process() {
        let base = URLResolver.withoutFragment(resolver.base)
        let context = Context(
            parentSubject: .iri(base), parentObject: .iri(base), vocabulary: nil, prefixes: Self.initialPrefixes,
            language: nil)
        for (index, node) in nodes.enumerated() where node.parent < 0 {
            visit(Int32(index), context: context, isRoot: node.tag == .html)
        }
        applyPropertyCopying()
    }

    /// HTML+RDFa §3.5 property copying: a subject with `rdfa:copy` → P receives P's triples when
    /// P is an `rdfa:Pattern`; the patterns and the copy triples are then removed.
    private mutating func applyPropertyCopying() {
        let patterns = Set(
            triples.filter { $0.predicate == Self.rdfType && $0.object == .term(.iri(Self.rdfaPattern)) }.map(\.subject)
        )
        guard !patterns.isEmpty else { return }
        var copies: [Triple] = []
        var referenced: Set<Term> = []
        for triple in triples where triple.predicate == Self.rdfaCopy {
            guard case .term(let pattern) = triple.object, patterns.contains(pattern) else { continue }
            referenced.insert(pattern)
            for source in triples where source.subject == pattern {
                if source.predicate == Self.rdfType, source.object == .term(.iri(Self.rdfaPattern)) { continue }
                copies.append(
                    Triple(
                        subject: triple.subject, predicate: source.predicate, object: source.object, line: source.line,
                        column: source.column))
            }
        }
        triples.removeAll { triple in
            referenced.contains(triple.subject)
                || (triple.predicate == Self.rdfaCopy
                    && {
                        if case .term(let t) = triple.object { return referenced.contains(t) } else { return false }
                    }())
        }
        triples += copies
    }

    private mutating func newBlankNode() -> Term {
        blankNodes += 1
        return .blank(blankNodes)
    }

    /// Elements nested deeper than this (in the pruned tree) are not processed.
    static let maximumDepth = 128

    private mutating func visit(_ index: Int32, context parent: Context, isRoot: Bool, depth: Int = 0) {
        guard depth < Self.maximumDepth else { return }
        let node = nodes[Int(index)]
        var context = parent
        if let vocab = node.vocab {
            let trimmed = vocab.trimmingASCIIWhitespace()
            if trimmed.isEmpty {
                context.vocabulary = nil
            } else {
                let iri = resolver.resolveStructuredDataURL(trimmed)
                context.vocabulary = iri
                emit(
                    .iri(URLResolver.withoutFragment(resolver.base)), Self.usesVocabulary, .term(.iri(iri)), node.line,
                    node.column)
            }
        }
        if let prefix = node.prefix {
            for declaration in MarkupCollector.parsePrefixes(prefix, line: node.line, column: node.column)
            where declaration.prefix != "_" {
                context.prefixes[declaration.prefix] = declaration.iri
            }
        }
        if let language = node.lang { context.language = language.isEmpty ? nil : language }

        let isHeadOrBody = node.tag == .head || node.tag == .body
        let about = node.about.flatMap { safeCURIEOrIRI($0, context) }
        let linked = node.href ?? node.src
        let resourceIRI =
            node.resource.flatMap { safeCURIEOrIRI($0, context) }
            ?? linked.map { Term.iri(resolver.resolveStructuredDataURL($0)) }
        let types = (node.typeOf ?? "").split(whereSeparator: \.isASCIIWhitespace).compactMap {
            expand(String($0), context)
        }
        let hasTypeOf = node.typeOf != nil

        // HTML+RDFa: in `rel`/`rev`, terms that are not CURIEs or IRIs (stylesheet, nofollow …) are
        // dropped when `property` is present; otherwise only defined terms count.
        func linkPredicates(_ value: String?) -> [String] {
            guard let value else { return [] }
            return value.split(whereSeparator: \.isASCIIWhitespace).compactMap { token -> String? in
                let token = String(token)
                if node.property != nil, !token.contains(":") { return nil }
                guard case .iri(let iri) = expand(token, context, forLink: true), !iri.hasPrefix("_:") else {
                    return nil
                }
                return iri
            }
        }
        let relPredicates = linkPredicates(node.rel)
        let revPredicates = linkPredicates(node.rev)
        let hasLinks = !relPredicates.isEmpty || !revPredicates.isEmpty

        var newSubject: Term?
        var currentObject: Term?
        var typedResource: Term?
        var skip = false

        if hasLinks {
            // §7.5 step 6
            if let about {
                newSubject = about
                if hasTypeOf { typedResource = about }
            } else if isRoot {
                newSubject = .iri(URLResolver.withoutFragment(resolver.base))
            } else if isHeadOrBody, hasTypeOf {
                newSubject = context.parentObject
                typedResource = newSubject
            } else if let parentObject = context.parentObject {
                newSubject = parentObject
            }
            if let resourceIRI {
                currentObject = resourceIRI
            } else if hasTypeOf, about == nil {
                currentObject = newBlankNode()
            }
            if hasTypeOf, about == nil { typedResource = currentObject }
        } else if node.property != nil, node.content == nil, node.datatype == nil {
            // §7.5 step 5.1
            if let about {
                newSubject = about
            } else if isRoot {
                newSubject = .iri(URLResolver.withoutFragment(resolver.base))
            } else if let parentObject = context.parentObject {
                newSubject = parentObject
            }
            if hasTypeOf {
                if about != nil {
                    typedResource = about
                } else if isHeadOrBody, resourceIRI == nil {
                    typedResource = context.parentObject
                } else {
                    typedResource = resourceIRI ?? newBlankNode()
                }
                currentObject = typedResource
            }
        } else {
            // §7.5 step 5.2
            if let about {
                newSubject = about
            } else if let resourceIRI {
                newSubject = resourceIRI
            } else if isRoot {
                newSubject = .iri(URLResolver.withoutFragment(resolver.base))
            } else if isHeadOrBody, hasTypeOf {
                newSubject = context.parentObject
            } else if hasTypeOf {
                newSubject = newBlankNode()
            } else if let parentObject = context.parentObject {
                newSubject = parentObject
                if node.property == nil { skip = true }
            }
            if hasTypeOf { typedResource = newSubject }
        }

        if let typedResource {
            for type in types { emit(typedResource, Self.rdfType, .term(type), node.line, node.column) }
        }

        // Role Attribute: the element (its id as a fragment, else a blank node) has xhv:role terms.
        if let role = node.role {
            let subject: Term =
                node.id.map { .iri(URLResolver.withoutFragment(resolver.base) + "#" + $0) } ?? newBlankNode()
            for token in role.split(whereSeparator: \.isASCIIWhitespace) {
                let token = String(token)
                let iri = token.contains(":") ? expandIRI(token, context) ?? token : Self.xhtmlVocabulary + token
                emit(subject, Self.xhtmlVocabulary + "role", .term(.iri(iri)), node.line, node.column)
            }
        }

        // §7.5 steps 9–10: links, or incomplete triples completed by descendants.
        var incomplete: [IncompleteTriple] = []
        if hasLinks, let subject = newSubject {
            if let object = currentObject {
                for predicate in relPredicates { emit(subject, predicate, .term(object), node.line, node.column) }
                for predicate in revPredicates { emit(object, predicate, .term(subject), node.line, node.column) }
            } else {
                incomplete =
                    relPredicates.map { IncompleteTriple(predicate: $0, forward: true) }
                    + revPredicates.map { IncompleteTriple(predicate: $0, forward: false) }
                currentObject = newBlankNode()
            }
        }

        if let property = node.property, let subject = newSubject {
            let object: Object
            if let content = node.content {
                object = .literal(
                    content, datatype: node.datatype.flatMap { expandIRI($0, context) }, language: context.language)
            } else if let datatype = node.datatype {
                object = .literal(collector.text(node.textRange), datatype: expandIRI(datatype, context), language: nil)
            } else if node.datetime != nil || node.tag == .time {
                let value = node.datetime ?? collector.text(node.textRange)
                object = .literal(value, datatype: Self.temporalDatatype(value), language: nil)
            } else if !hasLinks, node.resource != nil || node.href != nil || node.src != nil, let resourceIRI {
                object = .term(resourceIRI)
            } else if hasTypeOf, about == nil, let typedResource {
                object = .term(typedResource)
            } else {
                object = .literal(collector.text(node.textRange), datatype: nil, language: context.language)
            }
            for term in property.split(whereSeparator: \.isASCIIWhitespace) {
                if let predicate = expand(String(term), context), case .iri(let iri) = predicate, !iri.hasPrefix("_:") {
                    emit(subject, iri, object, node.line, node.column)
                }
            }
        }

        // §7.5 step 12: complete the parent's incomplete triples with this element's subject.
        if !skip, let subject = newSubject {
            for triple in context.incomplete {
                if triple.forward {
                    emit(context.parentSubject, triple.predicate, .term(subject), node.line, node.column)
                } else {
                    emit(subject, triple.predicate, .term(context.parentSubject), node.line, node.column)
                }
            }
        }

        if !skip {
            context.parentSubject = newSubject ?? context.parentSubject
            context.parentObject = currentObject ?? newSubject ?? context.parentSubject
            context.incomplete = incomplete
        }
        for child in children[Int(index)] {
            visit(child, context: context, isRoot: false, depth: depth + 1)
        }
    }

    private mutating func emit(_ subject: Term, _ predicate: String, _ object: Object, _ line: Int, _ column: Int) {
        triples.append(Triple(subject: subject, predicate: predicate, object: object, line: line, column: column))
    }

    /// `about`/`resource` values: a `[safe:curie]`, a `_:blank`, or an IRI resolved against the base.
    private func safeCURIEOrIRI(_ value: String, _ context: Context) -> Term? {
        let trimmed = value.trimmingASCIIWhitespace()
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
            return expand(String(trimmed.dropFirst().dropLast()), context)
        }
        if trimmed.hasPrefix("_:") { return .iri(trimmed) }
        return .iri(resolver.resolveStructuredDataURL(trimmed))
    }

    private func expandIRI(_ value: String, _ context: Context) -> String? {
        if case .iri(let iri) = expand(value, context) { return iri }
        return nil
    }

    /// Expands a term, CURIE or absolute IRI (RDFa Core §7.4.3).
    private func expand(_ value: String, _ context: Context, forLink: Bool = false) -> Term? {
        if let colon = value.firstIndex(of: ":") {
            let prefix = value[..<colon].lowercased()
            let reference = value[value.index(after: colon)...]
            if prefix == "_" { return .iri("_:" + reference) }
            if !reference.hasPrefix("//"), let namespace = context.prefixes[prefix] {
                return .iri(namespace + reference)
            }
            return .iri(value)
        }
        if let vocabulary = context.vocabulary { return .iri(vocabulary + value) }
        if let term = Self.initialTerms[value.lowercased()] { return .iri(term) }
        return nil
    }

    /// The XML Schema datatype HTML+RDFa gives a `<time>` value by its lexical form.
    static func temporalDatatype(_ value: String) -> String? {
        let bytes = Array(value.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { bytes[$0] >= 48 && bytes[$0] <= 57 }
        }
        if bytes.first == UInt8(ascii: "P")
            || (bytes.first == UInt8(ascii: "-") && bytes.dropFirst().first == UInt8(ascii: "P"))
        {
            return xsd + "duration"
        }
        if bytes.count >= 10, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7),
            bytes[7] == UInt8(ascii: "-"), digits(8..<10)
        {
            if bytes.count == 10 { return xsd + "date" }
            if bytes[10] == UInt8(ascii: "T") { return xsd + "dateTime" }
            return xsd + "date"
        }
        if bytes.count >= 5, digits(0..<2), bytes[2] == UInt8(ascii: ":"), digits(3..<5) { return xsd + "time" }
        if bytes.count == 7, digits(0..<4), bytes[4] == UInt8(ascii: "-"), digits(5..<7) { return xsd + "gYearMonth" }
        if bytes.count == 4, digits(0..<4) { return xsd + "gYear" }
        return nil
    }

    // MARK: Items

    /// The triples as items, subjects in order of first appearance.
    func items() -> [MarkupItem] {
        var order: [Term] = []
        var grouped: [Term: [Triple]] = [:]
        var objectUses: [Term: Int] = [:]
        for triple in triples {
            if grouped[triple.subject] == nil { order.append(triple.subject) }
            grouped[triple.subject, default: []].append(triple)
            if case .term(let object) = triple.object, triple.predicate != Self.rdfType {
                objectUses[object, default: 0] += 1
            }
        }
        func isNested(_ term: Term) -> Bool {
            if case .blank = term { return objectUses[term] == 1 && grouped[term] != nil }
            return false
        }
        func makeItem(_ subject: Term, path: Set<Term>) -> MarkupItem {
            let triples = grouped[subject] ?? []
            var types: [String] = []
            var properties: [ItemProperty] = []
            var positions: [String: Int] = [:]
            for triple in triples {
                if triple.predicate == Self.rdfType, case .term(let type) = triple.object {
                    if !types.contains(type.id) { types.append(type.id) }
                    continue
                }
                let kind: ItemValue.Kind
                switch triple.object {
                case .literal(let text, let datatype, let language):
                    kind =
                        datatype == nil && language == nil
                        ? .text(text) : .typedLiteral(text, datatype: datatype, language: language)
                case .term(let term):
                    if isNested(term), !path.contains(term), path.count < MicrodataBuilder.maximumNesting {
                        kind = .item(makeItem(term, path: path.union([term])))
                    } else {
                        kind = .reference(term.id)
                    }
                }
                let value = ItemValue(kind, line: triple.line, column: triple.column)
                if let position = positions[triple.predicate] {
                    properties[position].values.append(value)
                } else {
                    positions[triple.predicate] = properties.count
                    properties.append(ItemProperty(name: triple.predicate, values: [value]))
                }
            }
            return MarkupItem(
                types: types, id: subject.id, properties: properties, line: triples.first?.line ?? 0,
                column: triples.first?.column)
        }
        return order.filter { !isNested($0) }.map { makeItem($0, path: [$0]) }
    }
}
