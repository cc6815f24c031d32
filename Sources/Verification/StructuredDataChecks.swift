import LenientJSON
import MarkupExtraction
import Rulebook
import SpotlightModel

/// The structured-data rules (apple-markup-rules.md §7.6): JSON-LD, Microdata and RDFa.
///
/// Every node is checked wherever it nests (JSON-LD `@graph`, arrays, nested objects, nested
/// Microdata/RDFa items), up to ``StructuredData/maximumDepth`` levels and
/// ``StructuredData/maximumNodes`` nodes. SD003–SD006 judge schema.org terms (see ``SchemaOrgTerms``)
/// against the vocabulary release SpotCheck ships (``SchemaOrgVocabulary``).
struct StructuredDataChecks: PageRuleGroup {
    let page: PageMarkup
    var vocabulary: SchemaOrgVocabulary { .current }

    static let rules = RuleCatalogue.structuredDataRules

    /// Calls `report(rule, position, excerpt, message)` for each broken rule.
    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        var seen: Set<String> = []
        func flag(_ id: RuleID, _ position: SourcePosition, _ excerpt: String, _ message: String) {
            // Once per line (as before columns): the first place keeps the finding.
            guard seen.insert("\(id)|\(position.line)|\(message)").inserted else { return }
            report(id, position, excerpt, message)
        }
        checkScripts(flag)
        checkMicrodataSyntax(flag)
        let collection = StructuredData.collect(page)
        var suggestions = NameSuggestions()
        for node in collection.all {
            checkNode(node, suggestions: &suggestions, flag)
        }
        checkPage(collection, flag)
    }

    typealias Flag = (RuleID, SourcePosition, String, String) -> Void

    /// The nearest known names for one page's unknown types and properties: each name looked up
    /// once, and at most `limit` names (each lookup scans the vocabulary with an edit distance), so
    /// a page of 10,000 invented keys costs 50 lookups; later unknown names get no suggestion.
    struct NameSuggestions {
        static let limit = 50
        private var found: [String: String?] = [:]

        mutating func nearest(to name: String, by lookup: (String) -> String?) -> String? {
            if let known = found[name] { return known }
            guard found.count < Self.limit else { return nil }
            let suggestion = lookup(name)
            found[name] = suggestion
            return suggestion
        }
    }

    // MARK: JSON-LD scripts (SD001, SD002)

    private func checkScripts(_ flag: Flag) {
        for script in page.jsonLD {
            let excerpt = "<script type=\"application/ld+json\"> (line \(script.line))"
            let errors = script.diagnostics.filter { $0.severity == .error }
            if let first = errors.first {
                let outcome =
                    script.value == nil
                    ? "nothing could be recovered, so the script is ignored"
                    : "SpotCheck recovered it leniently, but strict JSON-LD processors ignore the whole script"
                let more = errors.count > 1 ? " (and \(errors.count - 1) more problem(s))" : ""
                // The line the first error is on, not the script tag (which may be far above it).
                let broken = Self.line(in: script.text, at: first.byteOffset)
                flag(
                    .sd001, SourcePosition(line: first.line, column: first.column), broken.isEmpty ? excerpt : broken,
                    "the JSON-LD script at line \(script.line) is not valid JSON: line \(first.line), column \(first.column): \(first.reason)\(more); \(outcome)"
                )
            }
            guard script.value != nil else { continue }
            for (index, value) in script.contributedValues.enumerated() {
                let position =
                    script.contributedValues.count > 1 ? "top-level object \(index + 1)" : "the top-level value"
                guard let object = value.objectValue else {
                    flag(
                        .sd002, script.position, excerpt,
                        "\(position) of the script at line \(script.line) is not an object, so it has no @context")
                    continue
                }
                guard let context = object["@context"] else {
                    // JSON-LD lets every node object carry its own embedded context (JSON-LD
                    // 1.1 §3.1 The Context): a @graph whose members each name schema.org needs
                    // none around it (issue 33).
                    let members = (object["@graph"]?.arrayValue ?? object["@graph"].map { [$0] } ?? [])
                        .compactMap(\.objectValue)
                    if members.isEmpty {
                        flag(
                            .sd002, script.position, excerpt,
                            "\(position) of the script at line \(script.line) has no @context")
                    }
                    for (number, member) in zip(1..., members) {
                        let what = "@graph member \(number) of \(position) (script at line \(script.line))"
                        if let own = member["@context"] {
                            if !Self.namesSchemaOrg(own) {
                                flag(
                                    .sd002, script.position, "\"@context\": \(Self.describe(own))",
                                    "the @context of \(what) is \(Self.describe(own)), not schema.org")
                            }
                        } else {
                            flag(
                                .sd002, script.position, excerpt,
                                "\(what) has no @context, and neither has the object around the @graph")
                        }
                    }
                    continue
                }
                if !Self.namesSchemaOrg(context) {
                    flag(
                        .sd002, script.position, "\"@context\": \(Self.describe(context))",
                        "the @context of \(position) (script at line \(script.line)) is \(Self.describe(context)), not schema.org"
                    )
                }
            }
        }
    }

    /// The line of `text` that holds the UTF-8 offset `offset`, without its indentation; around
    /// the offset at most `limit` characters of it (a minified script is one long line), each cut
    /// marked with `…`. Empty when the line is blank or the offset is outside the text.
    static func line(in text: String, at offset: Int, limit: Int = 120) -> String {
        let bytes = Array(text.utf8)
        guard offset >= 0, offset <= bytes.count else { return "" }
        func isBreak(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        var start = offset
        while start > 0, !isBreak(bytes[start - 1]) { start -= 1 }
        var end = offset
        while end < bytes.count, !isBreak(bytes[end]) { end += 1 }
        let before = String(decoding: bytes[start..<offset], as: UTF8.self).drop { $0.isWhitespace }
        var after = Substring(String(decoding: bytes[offset..<end], as: UTF8.self))
        while let last = after.last, last.isWhitespace { after.removeLast() }
        if before.count + after.count <= limit { return String(before + after) }
        let half = limit / 2
        var head = String(before.suffix(max(half, limit - after.count)))
        if head.count < before.count { head = "…" + head }
        var tail = String(after.prefix(max(half, limit - before.count)))
        if tail.count < after.count { tail += "…" }
        return head + tail
    }

    /// Whether a `@context` is schema.org: the IRI `http(s)://schema.org[/]` (or its context
    /// document), in a string, an array, or an object's `@vocab` or a prefix.
    static func namesSchemaOrg(_ context: JSONValue, depth: Int = 0) -> Bool {
        guard depth < 8 else { return false }
        switch context {
        case .string(let text):
            var iri = text.trimmedWhitespace.lowercased()
            for suffix in ["/docs/jsonldcontext.jsonld", "/docs/jsonldcontext.json"] where iri.hasSuffix(suffix) {
                iri.removeLast(suffix.count)
            }
            if iri.hasSuffix("/") { iri.removeLast() }
            return iri == "https://schema.org" || iri == "http://schema.org"
        case .array(let members):
            return members.contains { namesSchemaOrg($0, depth: depth + 1) }
        case .object(let object):
            return object.contains { namesSchemaOrg($0.value, depth: depth + 1) }
        default:
            return false
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"\(StructuredData.shortened(text))\""
        case .array: "an array"
        case .object: "an object"
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }

    // MARK: Microdata syntax (SD007)

    private func checkMicrodataSyntax(_ flag: Flag) {
        for diagnostic in page.diagnostics where diagnostic.code == .microdataOrphanProperty {
            flag(
                .sd007, diagnostic.position, "itemprop (line \(diagnostic.line))",
                "\(diagnostic.message): Microdata consumers drop it")
        }
    }

    // MARK: Per node (SD006–SD024, SD028)

    private func checkNode(_ node: StructuredNode, suggestions: inout NameSuggestions, _ flag: Flag) {
        func excerpt(_ name: String, _ value: StructuredValue) -> String {
            switch node.syntax {
            case .jsonLD: "\"\(name)\": \(value.written)"
            case .microdata: "itemprop=\"\(name)\" → \(value.written)"
            case .rdfa: "property=\"\(name)\" → \(value.written)"
            }
        }
        func excerpt(_ name: String) -> String {
            switch node.syntax {
            case .jsonLD: "\"\(name)\""
            case .microdata: "itemprop=\"\(name)\""
            case .rdfa: "property=\"\(name)\""
            }
        }
        let where_ = "\(node.typeName) (\(node.syntax.rawValue), line \(node.line))"

        if node.syntax == .microdata {
            for type in node.rawTypes where !Self.isAbsoluteURL(type) {
                let fix = Self.absoluteItemtype(type).map { "; write \(StructuredData.shortened($0))" } ?? ""
                flag(
                    .sd007, node.position, "itemtype=\"\(StructuredData.shortened(type))\"",
                    "itemtype \"\(StructuredData.shortened(type))\" (line \(node.line)) is not an absolute URL\(fix)"
                )
            }
        }

        // SD024 for JSON-LD identifiers: a node's @id and {"@id": …} references (blank nodes aside).
        if node.syntax == .jsonLD {
            var ids = node.id.map { [$0] } ?? []
            for property in node.properties {
                for value in property.values { if case .reference(let id) = value.kind { ids.append(id) } }
            }
            // An absolute IRI (`urn:isbn:…`), a compact IRI (`wd:Q349`, expanded by the context) and
            // a relative IRI (`#organization`, resolved against the document base, as JSON-LD 1.1
            // §4.1.2 says) are fine identifiers; script-like schemes are not.
            for id in ids where !id.hasPrefix("_:") {
                guard let scheme = Self.isAbsoluteURL(id) ? id.split(separator: ":").first?.lowercased() : nil,
                    ["javascript", "vbscript", "data", "file"].contains(scheme)
                else { continue }
                if let problem = Self.urlProblem(id) {
                    flag(
                        .sd024, node.position, "\"@id\": \"\(StructuredData.shortened(id))\"",
                        "@id \"\(StructuredData.shortened(id))\" (JSON-LD, line \(node.line)) \(problem)")
                }
            }
        }

        checkVocabulary(node, where_: where_, excerpt: excerpt, suggestions: &suggestions, flag)

        for property in node.properties {
            let name = property.name
            for value in property.values {
                checkValue(name, value, node: node, where_: where_, excerpt: excerpt(name, value), flag)
            }
        }

        // SD009 / SD010: the rating's scale.
        if let rating = node.values("ratingValue").first(where: { $0.number != nil }), let value = rating.number {
            let bestValues = node.values("bestRating")
            let worstValues = node.values("worstRating")
            let best = bestValues.first?.number
            let worst = worstValues.first?.number
            let numericScale = (bestValues.isEmpty || best != nil) && (worstValues.isEmpty || worst != nil)
            if numericScale {
                let high = best ?? 5
                let low = worst ?? 0
                let assumed = [
                    best == nil ? "bestRating 5 assumed" : nil,
                    worst == nil ? "worstRating absent: the scale starts at 0" : nil,
                ]
                .compactMap { $0 }
                let note = assumed.isEmpty ? "" : " (\(assumed.joined(separator: "; ")))"
                if (best != nil || worst != nil), high <= low {
                    let position = (bestValues.first ?? worstValues.first)?.position ?? node.position
                    flag(
                        .sd010, position, excerpt("bestRating"),
                        "bestRating \(Self.format(high)) is not above worstRating \(Self.format(low)) on \(where_)\(note)"
                    )
                } else if value < low || value > high {
                    flag(
                        .sd009, rating.position, excerpt("ratingValue", rating),
                        "ratingValue \(rating.written) on \(where_) is outside [\(Self.format(low)), \(Self.format(high))]\(note)"
                    )
                }
            }
        }

        // SD011: AggregateRating needs a count.
        if node.isA("AggregateRating") || node.isA("EmployerAggregateRating"), !node.has("ratingCount"),
            !node.has("reviewCount")
        {
            flag(.sd011, node.position, excerpt("aggregateRating"), "\(where_) has neither ratingCount nor reviewCount")
        }

        // SD014: an Offer with a price needs a currency (on the Offer or its priceSpecification).
        if node.isA("Offer") || node.isA("AggregateOffer"), let price = node.values("price").first,
            !node.has("priceCurrency"), !node.nodes("priceSpecification").contains(where: { $0.has("priceCurrency") })
        {
            flag(
                .sd014, price.position, excerpt("price", price),
                "\(where_) has price \(price.written) but no priceCurrency")
        }

        // SD015: lowPrice ≤ highPrice.
        if let low = node.values("lowPrice").first(where: { $0.number != nil }),
            let high = node.values("highPrice").first(where: { $0.number != nil }),
            let lowNumber = low.number, let highNumber = high.number, lowNumber > highNumber
        {
            flag(
                .sd015, low.position, excerpt("lowPrice", low),
                "lowPrice \(low.written) is above highPrice \(high.written) on \(where_)")
        }

        // SD017 / SD018: date order.
        compareDates(
            node, earlier: "startDate", later: "endDate", rule: .sd017, where_: where_, excerpt: excerpt, flag)
        compareDates(
            node, earlier: "datePublished", later: "dateModified", rule: .sd018, where_: where_, excerpt: excerpt, flag
        )

        // SD023: the SearchAction's target must carry the query-input's placeholder.
        if node.isA("SearchAction") { checkSearchAction(node, where_: where_, excerpt: excerpt, flag) }

        // SD028: ImageObject needs contentUrl.
        if node.isA("ImageObject"), !node.has("contentUrl") {
            let what = node.text("url").map { " (url \"\(StructuredData.shortened($0))\")" } ?? ""
            flag(
                .sd028, node.position, Self.typeExcerpt(node),
                "\(where_)\(what) has no contentUrl")
        }
    }

    // MARK: The schema.org vocabulary (SD003–SD006)

    /// Unknown types (SD003) and properties (SD004), properties outside their domains (SD005) and
    /// superseded terms (SD006), for the node's schema.org terms only.
    private func checkVocabulary(
        _ node: StructuredNode, where_: String, excerpt: (String) -> String, suggestions: inout NameSuggestions,
        _ flag: Flag
    ) {
        let release = "schema.org \(SchemaOrgVocabulary.release)"
        for type in node.schemaOrgTypes {
            let written = StructuredData.shortened(type.written)
            let typeExcerpt: String =
                switch node.syntax {
                case .jsonLD: "\"@type\": \"\(written)\""
                case .microdata: "itemtype=\"\(written)\""
                case .rdfa: "typeof=\"\(written)\""
                }
            if !vocabulary.isKnownType(type.name) {
                let what =
                    vocabulary.isKnownProperty(type.name)
                    ? "is a schema.org property, not a type" : "is not a type of \(release)"
                let suggestion =
                    type.name.contains("%20")
                    ? "; several types are separated by spaces, not %20"
                    : suggestions.nearest(to: type.name, by: vocabulary.nearestType).map { "; did you mean \($0)?" }
                        ?? ""
                flag(
                    .sd003, node.position, typeExcerpt,
                    "type \"\(StructuredData.shortened(type.name))\" (\(node.syntax.rawValue), line \(node.line)) \(what)\(suggestion)"
                )
            } else if let replacement = vocabulary.replacement(of: type.name) {
                flag(
                    .sd006, node.position, typeExcerpt,
                    "type \(type.name) (\(node.syntax.rawValue), line \(node.line)) is superseded by \(replacement)")
            }
        }
        let knownTypes = node.schemaOrgTypes.map(\.name)
        let judgesDomains = !knownTypes.isEmpty && knownTypes.allSatisfy(vocabulary.isKnownType)
        for property in node.properties {
            guard let name = property.schemaOrgName, !vocabulary.isActionAnnotation(name) else { continue }
            let position = property.values.first?.position ?? node.position
            guard vocabulary.isKnownProperty(name) else {
                let suggestion =
                    suggestions.nearest(to: name, by: vocabulary.nearestProperty).map { "; did you mean \($0)?" } ?? ""
                let what =
                    vocabulary.isKnownType(name)
                    ? "is a schema.org type, not a property" : "is not a property of \(release)"
                flag(
                    .sd004, position, excerpt(property.name),
                    "property \"\(StructuredData.shortened(name))\" on \(where_) \(what)\(suggestion)")
                continue
            }
            if let replacement = vocabulary.replacement(of: name) {
                flag(.sd006, position, excerpt(property.name), "\(name) on \(where_) is superseded by \(replacement)")
            }
            if judgesDomains, !vocabulary.allows(name, on: knownTypes) {
                let domains = vocabulary.properties[name]?.domains ?? []
                let listed = domains.prefix(5).joined(separator: ", ") + (domains.count > 5 ? ", …" : "")
                let pending = vocabulary.status(of: name)?.isPending == true ? " (a pending property)" : ""
                flag(
                    .sd005, position, excerpt(property.name),
                    "\(name)\(pending) on \(where_) is outside its schema.org domain (\(listed), or a subtype)")
            }
        }
    }

    private func checkValue(
        _ name: String, _ value: StructuredValue, node: StructuredNode, where_: String, excerpt: String, _ flag: Flag
    ) {
        let position = value.position
        if case .node = value.kind { return }
        if case .reference = value.kind { return }
        switch name {
        case "ratingValue", "bestRating", "worstRating":
            if value.number == nil {
                flag(
                    .sd008, position, excerpt,
                    "\(name) \(value.written) on \(where_) is not a plain number (ASCII digits, \".\" for decimals)")
            }
        case "ratingCount", "reviewCount":
            if !StructuredData.isCount(value) {
                flag(.sd011, position, excerpt, "\(name) \(value.written) on \(where_) is not a non-negative integer")
            }
        case "price", "lowPrice", "highPrice":
            if value.number == nil {
                flag(
                    .sd012, position, excerpt,
                    "\(name) \(value.written) on \(where_) is not a plain number (no currency symbol, \".\" for decimals, no thousands separators)"
                )
            }
        case "priceCurrency":
            let code = (value.text ?? "").trimmedWhitespace
            if !StructuredDataCodes.currencies.contains(code) {
                flag(
                    .sd013, position, excerpt,
                    "priceCurrency \(value.written) on \(where_) is not an ISO 4217 currency code")
            }
        case "startDate", "endDate", "datePublished", "dateModified":
            if case .number = value.kind {
                flag(
                    .sd016, position, excerpt, "\(name) \(value.written) on \(where_) is a number, not an ISO 8601 date"
                )
            } else if Self.date(value.text ?? "") == nil {
                flag(
                    .sd016, position, excerpt,
                    "\(name) \(value.written) on \(where_) is not an ISO 8601 date or date-time (YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with an optional zone: Z or ±hh:mm)"
                )
            }
        case "latitude", "longitude":
            let degrees = name == "latitude" ? 90 : 180
            let limit = Double(degrees)
            if let number = value.number {
                if number < -limit || number > limit {
                    flag(
                        .sd019, position, excerpt,
                        "\(name) \(value.written) on \(where_) is outside [−\(degrees), \(degrees)]")
                }
            } else {
                flag(.sd019, position, excerpt, "\(name) \(value.written) on \(where_) is not a plain decimal number")
            }
        case "telephone":
            if !Self.isPlausiblePhone(value.text ?? "") {
                flag(
                    .sd020, position, excerpt,
                    "telephone \(value.written) on \(where_) does not look like a phone number (E.164, e.g. +14155550100, is best)"
                )
            }
        case "email":
            let text = (value.text ?? "").trimmedWhitespace
            let isURL: Bool = if case .url = value.kind { true } else { false }
            if !isURL, text.lowercased().hasPrefix("mailto:") {
                flag(.sd021, position, excerpt, "email \(value.written) on \(where_) keeps the mailto: prefix")
            } else if !Self.isEmailAddress(isURL ? Self.strippingMailto(text) : text) {
                flag(.sd021, position, excerpt, "email \(value.written) on \(where_) is not an e-mail address")
            }
        case "addressCountry":
            let code = (value.text ?? "").trimmedWhitespace
            if !StructuredDataCodes.countries.contains(code) {
                flag(
                    .sd022, position, excerpt,
                    "addressCountry \(value.written) on \(where_) is not an ISO 3166-1 alpha-2 code (e.g. US)")
            }
        case "url", "image", "contentUrl", "sameAs":
            if let problem = Self.urlProblem(value.text ?? "") {
                // A lazy-loaded <img> has its URL in data-src, which Microdata does not read.
                let lazy = value.lazySource.map {
                    "; the element is lazy-loaded: its URL is in data-src=\"\(StructuredData.shortened($0))\", which Microdata does not read (give it a src, or add <link itemprop=\"\(name)\" href=…>)"
                }
                flag(.sd024, position, excerpt, "\(name) \(value.written) on \(where_) \(problem)\(lazy ?? "")")
            }
        default:
            break
        }
        _ = node
    }

    private func compareDates(
        _ node: StructuredNode, earlier: String, later: String, rule: RuleID, where_: String,
        excerpt: (String, StructuredValue) -> String, _ flag: Flag
    ) {
        guard let first = node.values(earlier).first, let second = node.values(later).first,
            let start = Self.date(first.text ?? ""), let end = Self.date(second.text ?? "")
        else { return }
        let before: Bool
        if start.hasTime, end.hasTime {
            before = end.secondsSince1970 < start.secondsSince1970
        } else {
            // A date without a time is the whole day: compare the calendar dates only.
            before = end.text.prefix(10) < start.text.prefix(10)
        }
        if before {
            flag(
                rule, second.position, excerpt(later, second),
                "\(later) \(second.written) is before \(earlier) \(first.written) on \(where_)")
        }
    }

    private func checkSearchAction(
        _ node: StructuredNode, where_: String, excerpt: (String, StructuredValue) -> String, _ flag: Flag
    ) {
        var targets: [StructuredValue] = []
        for value in node.values("target") {
            if let entryPoint = value.node {
                targets += entryPoint.values("urlTemplate")
            } else {
                targets.append(value)
            }
        }
        var names: [String] = []
        for value in node.values("query-input") {
            if let specification = value.node {
                names += specification.values("valueName").compactMap { $0.text?.trimmedWhitespace }
            } else if let text = value.text {
                for token in text.split(whereSeparator: \.isWhitespace) where token.hasPrefix("name=") {
                    names.append(String(token.dropFirst(5)))
                }
            }
        }
        for target in targets {
            let template = target.text ?? ""
            let placeholders = Self.placeholders(in: template)
            if let name = names.first {
                if !placeholders.contains(name) {
                    flag(
                        .sd023, target.position, excerpt("target", target),
                        "the target \(target.written) of \(where_) has no {\(name)} placeholder, which its query-input names"
                    )
                }
            } else if placeholders.isEmpty {
                flag(
                    .sd023, target.position, excerpt("target", target),
                    "the target \(target.written) of \(where_) has no {placeholder}")
            }
        }
    }

    // MARK: Page-level (SD025–SD027)

    private func checkPage(_ collection: StructuredData.Collection, _ flag: Flag) {
        // SD025: nothing Apple said it reads.
        if page.openGraph.isEmpty, !collection.all.contains(where: Self.isAppleSupported) {
            // Without a <title>, at the start of the page (as before columns: line 1).
            let position = page.title?.position ?? SourcePosition(line: 1, column: 1)
            let excerpt = page.title.map { "<title>\(StructuredData.shortened($0.text))</title>" } ?? "<head>"
            let found =
                collection.all.contains { $0.types.contains(where: Self.isSchemaOrgTerm) }
                ? "schema.org data, but none of the kinds Apple named" : "no schema.org data"
            flag(
                .sd025, position, excerpt,
                "the page has no Open Graph tags and \(found) (AggregateRating, Offer, priceRange, interactionStatistic, Organization, Recipe, SearchAction, ImageObject)"
            )
        }

        // SD026: one main entity, identified by the canonical URL.
        let canonicalText = page.canonicals.first?.content
        let canonical = canonicalText.map(URLNormalizer.normalize)
        let pageIsRoot = Self.isSiteRoot(canonicalText ?? page.url)
        /// A JSON-LD URL or id as an absolute, normalised URL (`/story/1` against the document base).
        func normalized(_ text: String) -> String { URLNormalizer.normalize(collection.resolved(text)) }
        func matchesCanonical(_ node: StructuredNode) -> Bool {
            guard let canonical else { return false }
            var identities = [node.text("url"), node.id].compactMap { $0 }
            for value in node.values("mainEntityOfPage") {
                if let nested = value.node {
                    identities += [nested.id, nested.text("url")].compactMap { $0 }
                } else if let text = value.text {
                    identities.append(text)
                }
            }
            return identities.contains { normalized($0) == canonical }
        }
        // schema.org subjects only: data-vocabulary.org, MediaWiki's mw: … types are not candidates;
        // nor is a node another names as its author, publisher … (a Yoast @graph's Person, whose
        // "#/schema/person/…" id on the site's root matches the root's canonical URL): SD026 and
        // SD027 are about what the page describes, not who wrote it (issue 33). A WebPage's
        // mainEntity still counts (a ProfilePage is about its Person).
        let subjects = collection.topLevel.filter { node in
            node.types.contains(where: Self.isSchemaOrgTerm) && Set(node.types).isDisjoint(with: Self.furnitureTypes)
                && !(node.id.map { collection.partyIDs.contains(collection.key($0)) } ?? false)
        }
        var main: StructuredNode?
        if let matched = subjects.first(where: matchesCanonical) {
            main = matched
        } else if let webPage = collection.topLevel.first(where: { !Set($0.types).isDisjoint(with: Self.webPageTypes) }
        ),
            let mainEntity = webPage.values("mainEntity").lazy.compactMap(collection.node).first
        {
            main = mainEntity
        } else {
            let candidates = subjects.filter { node in
                !(node.id.map { collection.referencedIDs.contains(collection.key($0)) } ?? false)
                    && (pageIsRoot
                        || !([node.text("url"), node.id].compactMap { $0 }.contains {
                            Self.isSiteRoot(collection.resolved($0))
                        }))
            }
            var distinct: [StructuredNode] = []
            for candidate in candidates
            where !distinct.contains(where: { $0.types == candidate.types && $0.text("name") == candidate.text("name") }
            ) {
                distinct.append(candidate)
            }
            if distinct.count > 1 {
                let list = distinct.prefix(4).map { "\($0.typeName) (\($0.syntax.rawValue), line \($0.line))" }
                    .joined(separator: ", ")
                flag(
                    .sd026, distinct[1].position, Self.typeExcerpt(distinct[1]),
                    "\(distinct.count) candidate main entities: \(list); "
                        + (canonical == nil
                            ? "the page has no canonical URL to tell which one it is about"
                            : "none has the canonical URL as url, @id or mainEntityOfPage")
                )
            } else {
                main = distinct.first
            }
        }
        guard let main else { return }
        if let canonical, let urlValue = main.values("url").first, let url = urlValue.text,
            normalized(url) != canonical, !matchesCanonical(main)
        {
            flag(
                .sd026, urlValue.position, "\"url\": \(urlValue.written)",
                "the main entity \(main.typeName) (line \(main.line)) has url \(urlValue.written), not the canonical URL \(canonicalText ?? "")"
            )
        }

        // SD027: the main entity and Open Graph must agree.
        if let ogTitle = page.openGraph.first(where: { $0.key.lowercased() == "og:title" }),
            let nameValue = main.values("name").first, let name = nameValue.text
        {
            let a = Self.words(name)
            let b = Self.words(ogTitle.content)
            if !a.isEmpty, !b.isEmpty, a.isDisjoint(with: b) {
                flag(
                    .sd027, nameValue.position, "\"name\": \(nameValue.written)",
                    "\(main.typeName).name \(nameValue.written) (line \(nameValue.line)) and og:title \"\(StructuredData.shortened(ogTitle.content))\" (line \(ogTitle.line)) name different things"
                )
            }
        }
        let ogImages = page.openGraph.filter {
            ["og:image", "og:image:url", "og:image:secure_url"].contains($0.key.lowercased())
        }
        var entityImages: [StructuredValue] = []
        // An ImageObject given inline or by reference (`{"@id": "…#primaryimage"}`, Yoast's @graph)
        // counts by its contentUrl and url; an id that names nothing on the page is compared as written.
        for value in main.values("image") {
            if let image = collection.node(value) {
                entityImages += image.values("contentUrl") + image.values("url")
            } else {
                entityImages.append(value)
            }
        }
        entityImages.removeAll { ($0.text ?? "").trimmedWhitespace.isEmpty }
        guard let first = entityImages.first, let og = ogImages.first else { return }
        let ogKeys = ogImages.reduce(into: Set<String>()) { $0.formUnion(Self.imageKeys($1.content)) }
        let entityKeys = entityImages.reduce(into: Set<String>()) {
            $0.formUnion(Self.imageKeys(collection.resolved($1.text ?? "")))
        }
        if !ogKeys.isEmpty, !entityKeys.isEmpty, ogKeys.isDisjoint(with: entityKeys) {
            flag(
                .sd027, first.position, "\"image\": \(first.written)",
                "\(main.typeName).image \(first.written) and og:image \"\(StructuredData.shortened(og.content))\" (line \(og.line)) share no image"
            )
        }
    }

    static let furnitureTypes: Set<String> = webPageTypes.union([
        "WebSite", "BreadcrumbList", "SiteNavigationElement", "WPHeader", "WPFooter", "WPSideBar", "WPAdBlock",
        "SearchAction",
    ])

    static let webPageTypes: Set<String> = [
        "WebPage", "AboutPage", "CheckoutPage", "CollectionPage", "ContactPage", "FAQPage", "ItemPage",
        "MedicalWebPage",
        "ProfilePage", "QAPage", "RealEstateListing", "SearchResultsPage", "MediaGallery", "ImageGallery",
        "VideoGallery",
    ]

    /// Apple's list (§2.3): AggregateRating, Offers, PriceRange, InteractionCount, Organization,
    /// Recipe, SearchAction, ImageObject; types and the properties Apple named.
    static func isAppleSupported(_ node: StructuredNode) -> Bool {
        let types: Set<String> = [
            "AggregateRating", "Offer", "AggregateOffer", "Organization", "LocalBusiness", "Corporation", "Recipe",
            "SearchAction", "ImageObject",
        ]
        let properties = ["aggregateRating", "offers", "priceRange", "interactionCount", "interactionStatistic"]
        return !types.isDisjoint(with: node.types) || properties.contains(where: node.has)
    }

    // MARK: Value tests

    /// An ISO 8601 date or date-time as schema.org writes them: `T` between date and time.
    static func date(_ text: String) -> SpotlightDate? {
        ISO8601.conformingDate(text)
    }

    /// The absolute itemtype a relative one stands for: `//schema.org/Movie` (scheme-relative) →
    /// `https://schema.org/Movie`, `schema.org/Movie` → `https://schema.org/Movie`, `Movie` →
    /// `https://schema.org/Movie`, `//example.org/T` → `https://example.org/T`; nil for nothing to go on.
    static func absoluteItemtype(_ type: String) -> String? {
        let trimmed = type.trimmedWhitespace
        if trimmed.hasPrefix("//") {
            let rest = trimmed.dropFirst(2)
            return rest.isEmpty ? nil : "https:" + trimmed
        }
        var name = Substring(trimmed)
        while name.first == "/" { name = name.dropFirst() }
        for host in ["www.schema.org/", "schema.org/"] where name.lowercased().hasPrefix(host) {
            name = name.dropFirst(host.count)
            break
        }
        return name.isEmpty ? nil : "https://schema.org/" + name
    }

    static func isAbsoluteURL(_ text: String) -> Bool {
        guard URLText.hasScheme(text), let colon = text.firstIndex(of: ":") else { return false }
        return text.index(after: colon) < text.endIndex
    }

    /// Why a URL-valued property is not an absolute http(s) URL, or nil.
    static func urlProblem(_ text: String) -> String? {
        let trimmed = text.trimmedWhitespace
        if trimmed.isEmpty { return "is empty" }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return nil }
        if lower.hasPrefix("//") { return "is protocol-relative; write https://" }
        if isAbsoluteURL(trimmed), let scheme = trimmed.split(separator: ":").first {
            return "has the scheme \"\(scheme)\"; an http(s) URL is expected"
        }
        return "is relative; write an absolute https URL"
    }

    static func isPlausiblePhone(_ text: String) -> Bool {
        var number = Substring(text.trimmedWhitespace)
        if number.lowercased().hasPrefix("tel:") { number = number.dropFirst(4) }
        // An extension (`ext. 12`, `x12`, `;ext=12`, `#12`) is allowed after the number.
        let lower = number.lowercased()
        for marker in [";ext=", "ext.", "ext", " x", "#"] {
            if let range = lower.firstRange(of: marker) {
                let offset = lower.distance(from: lower.startIndex, to: range.lowerBound)
                number = number.prefix(offset)
                break
            }
        }
        var digits = 0
        for (offset, character) in number.enumerated() {
            if character.isASCII, character.isNumber {
                digits += 1
            } else if character == "+" {
                guard offset == 0 else { return false }
            } else if !(character.isWhitespace || "-.()/\u{A0}".contains(character)) {
                return false
            }
        }
        return (5...15).contains(digits)
    }

    static func strippingMailto(_ text: String) -> String {
        var address = Substring(text)
        if address.lowercased().hasPrefix("mailto:") { address = address.dropFirst(7) }
        if let query = address.firstIndex(of: "?") { address = address[..<query] }
        return String(address).replacingPercentAt
    }

    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty,
            domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".")
        else { return false }
        return !text.contains { $0.isWhitespace || "<>,;:\"()[]\\".contains($0) }
    }

    /// `{name}` placeholders of a URL template (also percent-encoded braces).
    static func placeholders(in template: String) -> Set<String> {
        let decoded = template.replacingPercentBraces
        var names: Set<String> = []
        var rest = Substring(decoded)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]).trimmedWhitespace)
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// Whether a URL's path is `/` (a site's home page; query and fragment ignored).
    static func isSiteRoot(_ url: String) -> Bool {
        guard let scheme = url.firstRange(of: "://") else { return false }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(where: { "/?#".contains($0) }) else { return true }
        let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty || path == "/"
    }

    /// What identifies an image file in its URL, for telling another rendition of the same image
    /// (other size, crop or CDN host) from a different image: the path; each file-like segment's
    /// name without extensions (`Flag_of_New_Zealand.svg` in a thumbnail path); and each
    /// alphanumeric run of 6+ characters with a digit (`621866810` in `GettyImages-621866810-640x480`).
    static func imageKeys(_ url: String) -> Set<String> {
        printableASCIIImageKeys(url) ?? characterImageKeys(url)
    }

    /// `imageKeys` by `Character`s, for any URL.
    static func characterImageKeys(_ url: String) -> Set<String> {
        var text = Substring(url.trimmedWhitespace)
        if let scheme = text.firstRange(of: "://") {
            text = text[scheme.upperBound...]
            text = text.firstIndex(of: "/").map { text[$0...] } ?? ""
        } else if text.hasPrefix("//") {
            text = text.dropFirst(2)
            text = text.firstIndex(of: "/").map { text[$0...] } ?? ""
        }
        let path = text.prefix { $0 != "?" && $0 != "#" }
        guard !path.isEmpty else { return [] }
        var keys: Set<String> = ["path:" + path]
        for segment in path.split(separator: "/") where segment.contains(".") {
            if let stem = segment.split(separator: ".").first, stem.count >= 6 { keys.insert("file:" + stem) }
        }
        for run in path.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        where run.count >= 6 && run.contains(where: \.isNumber) {
            keys.insert("id:" + run)
        }
        return keys
    }

    /// `imageKeys` of a URL that is printable ASCII once white space is trimmed from its ends (every
    /// URL a page writes, nearly), found in its bytes: each byte is then one `Character`, so the keys
    /// are the same. nil for any other URL.
    static func printableASCIIImageKeys(_ url: String) -> Set<String>? {
        var url = url
        return url.withUTF8 { all -> Set<String>? in
            var start = all.startIndex
            var end = all.endIndex
            while start < end, all[start].isWhitespaceCharacter { start += 1 }
            while end > start, all[end - 1].isWhitespaceCharacter { end -= 1 }
            let text = all[start..<end]
            guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            let slash = UInt8(ascii: "/")
            var pathStart = text.startIndex
            if let scheme = text.firstRange(of: Array("://".utf8)) {
                pathStart = text[scheme.upperBound...].firstIndex(of: slash) ?? text.endIndex
            } else if text.count >= 2, text[text.startIndex] == slash, text[text.startIndex + 1] == slash {
                pathStart = text[(text.startIndex + 2)...].firstIndex(of: slash) ?? text.endIndex
            }
            let rest = text[pathStart...]
            let path = rest[
                ..<(rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex)]
            guard !path.isEmpty else { return [] }
            func string(_ prefix: String, _ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
                prefix + String(decoding: bytes, as: UTF8.self)
            }
            var keys: Set<String> = [string("path:", path)]
            for segment in path.split(separator: slash) where segment.contains(UInt8(ascii: ".")) {
                if let stem = segment.split(separator: UInt8(ascii: ".")).first, stem.count >= 6 {
                    keys.insert(string("file:", stem))
                }
            }
            func isLetterOrDigit(_ byte: UInt8) -> Bool {
                (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
            }
            for run in path.split(whereSeparator: { !isLetterOrDigit($0) })
            where run.count >= 6 && run.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                keys.insert(string("id:", run))
            }
            return keys
        }
    }

    /// A type as written by its syntax, for excerpts.
    static func typeExcerpt(_ node: StructuredNode) -> String {
        let type = StructuredData.shortened(node.rawTypes.first ?? node.typeName)
        return switch node.syntax {
        case .jsonLD: "\"@type\": \"\(type)\" (line \(node.line))"
        case .microdata: "itemtype=\"\(type)\" (line \(node.line))"
        case .rdfa: "typeof=\"\(type)\" (line \(node.line))"
        }
    }

    /// A schema.org term once shortened: no scheme, prefix or path left (`Movie`, not `mw:File`).
    static func isSchemaOrgTerm(_ term: String) -> Bool {
        !term.isEmpty && !term.contains(":") && !term.contains("/")
    }

    /// The lower-cased words of a name, for comparing names: a title that adds the site name or
    /// "About …" to the entity's name shares words with it; only names with no word in common
    /// contradict each other.
    static func words(_ text: String) -> Set<String> {
        let stopWords: Set<String> = ["the", "a", "an", "of", "and", "or", "in", "on", "for", "to", "at", "by", "with"]
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        return Set(words).subtracting(stopWords)
    }

    static func format(_ number: Double) -> String {
        // Under 1e15 in magnitude: the Int holds it.
        guard number.magnitude < 1e15 else { return String(number) }
        let whole = Int(number)  // numeric-conversion: checked
        if Double(whole) == number { return String(whole) }
        return String(number)
    }
}

extension String {
    /// `%7B` / `%7D` → `{` / `}`.
    fileprivate var replacingPercentBraces: String {
        var result = ""
        var index = startIndex
        while index < endIndex {
            let rest = self[index...]
            if rest.count >= 3, rest.hasPrefix("%") {
                let code = rest.dropFirst().prefix(2).uppercased()
                if code == "7B" || code == "7D" {
                    result.append(code == "7B" ? "{" : "}")
                    index = self.index(index, offsetBy: 3)
                    continue
                }
            }
            result.append(self[index])
            index = self.index(after: index)
        }
        return result
    }

    /// `%40` → `@` (mailto: addresses are sometimes percent-encoded).
    fileprivate var replacingPercentAt: String {
        split(separator: "%40", omittingEmptySubsequences: false).joined(separator: "@")
    }
}
