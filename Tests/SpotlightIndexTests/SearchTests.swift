import SpotlightIndex
import SpotlightModel
import Testing

@Suite("Full-text search")
struct SearchTests {
    /// Movies and people, the fixture's shape.
    static func catalogue(_ backend: IndexBackend) throws -> LocalIndex {
        let index = try makeIndex(backend, "search")
        try index.indexItems([
            item(
                "movie-up", domain: "movies.pixar", title: "Up", description: "A house flies under balloons",
                keywords: ["balloons", "adventure", "catalogue"], contentType: "public.movie"),
            item(
                "movie-paddington", domain: "movies", title: "Paddington 2", description: "Marmalade in prison",
                keywords: ["bear", "catalogue"], contentType: "public.movie"),
            item(
                "person-tomas", domain: "colleagues", title: "Tomás Herrera", description: "Edits the movie pages",
                keywords: ["catalogue"], contentType: "public.contact"),
            item(
                "movie-balloon-doc", domain: "moviesx", title: "The Balloon Makers", description: "A documentary",
                keywords: ["catalogue"], contentType: "public.movie"),
        ])
        return index
    }

    @Test(
        "Words fold as FTS5's unicode61 with remove_diacritics 2: case always, diacritics on Latin letters only",
        arguments: [
            ("Tomás", "tomas"), ("ÉCOLE", "ecole"), ("Straße", "straße"), ("Ærøskøbing", "ærøskøbing"),
            ("Йогурт", "йогурт"), ("がっこう", "がっこう"), ("Ελλάδα", "ελλάδα"), ("e\u{301}te\u{301}", "ete"),
        ])
    func folding(word: String, folded: String) {
        #expect(SearchTokens.folded(word) == folded)
    }

    @Test func wordsAreQuotedSoNoInputIsSyntax() {
        #expect(SearchQuery("pad").matchExpression == "\"pad\"*")
        #expect(
            SearchQuery("up AND \"house\"", prefixMatchesLastWord: false).matchExpression == "\"up\" \"AND\" \"house\"")
        #expect(SearchQuery("NEAR(a b)").matchExpression == "\"NEAR\" \"a\" \"b\"*")
        #expect(SearchQuery("  \"*:^-()  ").matchExpression == nil)
        #expect(SearchQuery("Tomás-Herrera").words == ["Tomás", "Herrera"])
    }

    @Test(
        "Queries with FTS5 syntax, quotes, operators and any Unicode never fail",
        arguments: IndexBackend.available,
        [
            "\"", "\"\"", "'", "*", "**", "a*b", "^up", "up:", "title:up", "-up", "+up", "up OR", "OR", "AND", "NOT",
            "NEAR", "NEAR(up house, 2)", "(", ")", "{title}: up", "up\"house", "\u{0}", "\\", "%", "_",
            "'; DROP TABLE item; --",
            "🎈", "🎈 up", "Tomás", "TOMAS", "東京", "ﬁ", "İstanbul", "e\u{301}", String(repeating: "a ", count: 500), "",
        ])
    func hostileQueries(backend: IndexBackend, text: String) throws {
        let index = try Self.catalogue(backend)
        #expect(throws: Never.self) { try index.search(SearchQuery(text)) }
        #expect(throws: Never.self) { try index.search(SearchQuery(text, prefixMatchesLastWord: false)) }
    }

    @Test(arguments: IndexBackend.available) func prefixMatchingForTypeAhead(backend: IndexBackend) throws {
        let index = try Self.catalogue(backend)
        #expect(try index.search(SearchQuery("padd")).map(\.uniqueIdentifier) == ["movie-paddington"])
        #expect(try index.search(SearchQuery("padd", prefixMatchesLastWord: false)).isEmpty)
        // Only the last word is a prefix; earlier words must be whole.
        #expect(try index.search(SearchQuery("paddington marm")).map(\.uniqueIdentifier) == ["movie-paddington"])
        #expect(try index.search(SearchQuery("padd marmalade")).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func diacriticsAndCaseAreFolded(backend: IndexBackend) throws {
        let index = try Self.catalogue(backend)
        #expect(try index.search(SearchQuery("tomas")).map(\.uniqueIdentifier) == ["person-tomas"])
        #expect(try index.search(SearchQuery("TOMÁS HERRERA")).map(\.uniqueIdentifier) == ["person-tomas"])
    }

    @Test(arguments: IndexBackend.available) func everyWordMustMatch(backend: IndexBackend) throws {
        let index = try Self.catalogue(backend)
        #expect(try index.search(SearchQuery("house balloons")).map(\.uniqueIdentifier) == ["movie-up"])
        #expect(try index.search(SearchQuery("house bear")).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func aTitleMatchOutranksADescriptionMatch(backend: IndexBackend) throws {
        let index = try makeIndex(backend, "weights")
        try index.indexItems([
            item("in-description", title: "Something", description: "all about lighthouses and the lighthouse"),
            item("in-title", title: "Lighthouse", description: "Something else entirely"),
            item("in-keywords", title: "Other", description: "Nothing", keywords: ["lighthouse"]),
        ])
        #expect(
            try index.search(SearchQuery("lighthouse", prefixMatchesLastWord: false)).map(\.uniqueIdentifier) == [
                "in-title", "in-keywords", "in-description",
            ])
    }

    @Test(arguments: IndexBackend.available) func rankingHintLiftsAnEquallyRelevantItem(backend: IndexBackend) throws {
        let index = try makeIndex(backend, "hint")
        try index.indexItems([
            item("plain", title: "Harbour tour"),
            item("hinted", title: "Harbour tour", rankingHint: 80),
            item("low", title: "Harbour tour", rankingHint: 5),
        ])
        let results = try index.search(SearchQuery("harbour"))
        #expect(results.map(\.uniqueIdentifier) == ["hinted", "low", "plain"])
        #expect(results[0].score > results[1].score)
    }

    @Test(
        "The domain filter takes sub-domains and not look-alikes",
        arguments: IndexBackend.available,
        [
            ("movies", ["movie-up", "movie-paddington"]),
            ("movies.pixar", ["movie-up"]),
            ("moviesx", ["movie-balloon-doc"]),
            ("colleagues", ["person-tomas"]),
            ("movie", []),
        ] as [(String, [String])])
    func domainFilter(backend: IndexBackend, example: (String, [String])) throws {
        let (domain, expected) = example
        let index = try Self.catalogue(backend)
        let results = try index.search(SearchQuery("catalogue", domainIdentifier: domain))
        #expect(Set(results.compactMap(\.uniqueIdentifier)) == Set(expected))
    }

    @Test(arguments: IndexBackend.available) func contentTypeFilter(backend: IndexBackend) throws {
        let index = try Self.catalogue(backend)
        #expect(
            try index.search(SearchQuery("movie", contentType: "public.contact")).map(\.uniqueIdentifier) == [
                "person-tomas"
            ])
        #expect(try index.search(SearchQuery("balloon", contentType: "PUBLIC.MOVIE")).count == 2)
        #expect(try index.search(SearchQuery("balloon", contentType: "public.contact")).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func limit(backend: IndexBackend) throws {
        let index = try makeIndex(backend, "limit")
        try index.indexItems((0..<50).map { item("item-\($0)", title: "Harbour \($0)") })
        #expect(try index.search(SearchQuery("harbour", limit: 7)).count == 7)
        #expect(try index.search(SearchQuery("harbour", limit: 100)).count == 50)
        #expect(try index.search(SearchQuery("harbour", limit: 0)).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func deletedItemsAreNotFound(backend: IndexBackend) throws {
        let index = try Self.catalogue(backend)
        #expect(try index.search(SearchQuery("balloon")).count == 2)
        try index.deleteItems(domainIdentifiers: ["movies"])
        #expect(try index.search(SearchQuery("balloon")).map(\.uniqueIdentifier) == ["movie-balloon-doc"])
    }

    @Test(arguments: IndexBackend.available) func aStandaloneActivityIsItsOwnResult(backend: IndexBackend) throws {
        let index = try Self.catalogue(backend)
        try index.indexActivities([
            activity(
                "directions", title: "Office directions", webpageURL: "https://example.com/office", domain: "places")
        ])
        let results = try index.search(SearchQuery("office"))
        #expect(results.count == 1)
        #expect(results.first?.uniqueIdentifier == nil)
        #expect(results.first?.url == "https://example.com/office")
        #expect(results.first?.activityTypes == ["directions"])
        #expect(results.first?.isItem == false)
    }
}
