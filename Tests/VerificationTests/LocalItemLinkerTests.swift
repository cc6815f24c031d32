import ItemLinking
import ReportModel
import SpotlightModel
import Testing
import Verification

@Suite("Linking local items to pages (AS rules)")
struct LocalItemLinkerTests {
    static let now = 1_795_000_000.0  // 2026-11-18
    static let later = SpotlightDate(
        text: "2027-11-22T00:00:00Z", secondsSince1970: 1_826_928_000, timeZoneOffset: 0, hasTime: true)

    static func item(
        _ id: String, contentURL: String? = nil, title: String = "Up", thumbnail: String? = nil,
        expiration: SpotlightDate? = later, domain: String? = "movies", isUpdate: Bool = false
    ) -> LocalEntry {
        var set = AttributeSet()
        set.title = title
        set.contentURL = contentURL
        set.thumbnailURL = thumbnail
        return .item(
            SearchableItem(
                uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set, expirationDate: expiration,
                isUpdate: isUpdate))
    }

    static func page(_ path: String, status: Int = 200, title: String = "Up", candidate: Bool = true) -> LinkablePage {
        var set = AttributeSet()
        set.title = title
        let url = "https://www.example.com/" + path
        return LinkablePage(
            url: url, finalURL: url, status: status, canonical: url, isCandidate: candidate && status == 200,
            isPubliclyIndexable: true, attributeSet: status == 200 ? set : nil)
    }

    static func link(_ entries: [LocalEntry], _ pages: [LinkablePage], notFetched: [String: String] = [:]) -> LinkReport
    {
        LocalItemLinker(now: now).link(entries: entries, pages: pages, notFetched: notFetched)
    }

    @Test func itemsLinkByContentURLAndPagesWithoutItemsAreAS001() {
        let report = Self.link(
            [Self.item("movie-up", contentURL: "https://www.example.com/movies/up.html")],
            [Self.page("movies/up.html"), Self.page("about.html", title: "About")])
        #expect(
            report.links == [
                LocalItemLink(entry: "movie-up", page: "https://www.example.com/movies/up.html", key: "contentURL")
            ])
        #expect(report.pagesWithoutEntries == ["https://www.example.com/about.html"])
        #expect(report.findings.map(\.ruleID).sorted() == ["AS001"])
    }

    /// Issue 31: the documented join key `contentURL` and `url` link the same item to the same page,
    /// neither with AS008; a web contentURL beside `url` is AS008.
    @Test(arguments: [["contentURL"], ["url"], ["contentURL", "url"]])
    func eitherJoinKeyLinksCleanly(_ fields: [String]) {
        let page = "https://www.example.com/movies/up.html"
        var set = AttributeSet()
        set.title = "Up"
        if fields.contains("contentURL") { set.contentURL = page }
        if fields.contains("url") { set.url = page }
        let entry = LocalEntry.item(
            SearchableItem(
                uniqueIdentifier: "movie-up", domainIdentifier: "movies", attributeSet: set, expirationDate: Self.later)
        )
        let report = Self.link([entry], [Self.page("movies/up.html")])
        #expect(report.links == [LocalItemLink(entry: "movie-up", page: page, key: fields[0])])
        #expect(report.findings.map(\.ruleID) == (fields.count == 2 ? ["AS008"] : []))
    }

    @Test func unmatchedItemsSayWhy() {
        let report = Self.link(
            [
                Self.item("gone", contentURL: "https://www.example.com/movies/gone.html"),
                Self.item("staff", contentURL: "https://www.example.com/private/secret.html"),
                Self.item("elsewhere", contentURL: "https://other.example/x"),
            ],
            [Self.page("movies/gone.html", status: 404)],
            notFetched: ["https://www.example.com/private/secret.html": "robots.txt disallows it"])
        let reasons = Dictionary(uniqueKeysWithValues: report.unmatched.map { ($0.entry, $0.reason) })
        #expect(reasons["gone"]?.contains("HTTP 404") == true)
        #expect(reasons["staff"]?.contains("robots.txt") == true)
        #expect(reasons["elsewhere"]?.contains("outside the crawl") == true)
    }

    @Test func anActivityLinksThroughItsRelatedItem() {
        var related = AttributeSet()
        related.relatedUniqueIdentifier = "movie-up"
        let activity = LocalEntry.activity(
            UserActivity(activityType: "com.example.movie.view", title: "Up", contentAttributeSet: related))
        let report = Self.link(
            [Self.item("movie-up", contentURL: "https://www.example.com/movies/up.html"), activity],
            [Self.page("movies/up.html")])
        #expect(report.links.map(\.key) == ["contentURL", "related item movie-up"])
        #expect(!report.findings.contains { $0.ruleID == "AS002" }, "one identifier for the page: no duplicate")
    }

    @Test(
        arguments: [
            (item("a", thumbnail: "https://www.example.com/a.png"), "AS007"),
            (item("a", expiration: nil), "AS009"),
            (item("a", domain: "www.example.com"), "AS010"),
            (item("a", isUpdate: true), "AS014"),
        ] as [(LocalEntry, String)])
    func itemRules(entry: LocalEntry, rule: String) {
        #expect(Self.link([entry], []).findings.map(\.ruleID).contains(rule))
    }

    @Test func activityRules() {
        let ftp = LocalEntry.activity(UserActivity(activityType: "t", webpageURL: "ftp://a/b"))
        #expect(Self.link([ftp], []).findings.map(\.ruleID).contains("AS004"))
        let bare = LocalEntry.activity(UserActivity(activityType: "t", isEligibleForPublicIndexing: true))
        #expect(Self.link([bare], []).findings.map(\.ruleID).contains("AS005"))
        var related = AttributeSet()
        related.relatedUniqueIdentifier = "missing"
        let orphan = LocalEntry.activity(UserActivity(activityType: "t", contentAttributeSet: related))
        #expect(Self.link([orphan], []).findings.map(\.ruleID).contains("AS006"))
    }

    @Test func differingMetadataIsAS003AndTwoIdentifiersAreAS002() {
        let report = Self.link(
            [
                Self.item("a", contentURL: "https://www.example.com/movies/up.html", title: "Up!"),
                Self.item("b", contentURL: "https://www.example.com/movies/up.html"),
            ],
            [Self.page("movies/up.html")])
        #expect(report.findings.map(\.ruleID).filter { $0 == "AS003" || $0 == "AS002" }.sorted() == ["AS002", "AS003"])
    }

    @Test func anEligibleActivityForABlockedPageIsAS015() {
        var blocked = Self.page("private/secret.html")
        blocked.isPubliclyIndexable = false
        let activity = LocalEntry.activity(
            UserActivity(
                activityType: "t", webpageURL: "https://www.example.com/private/secret.html",
                isEligibleForPublicIndexing: true))
        #expect(Self.link([activity], [blocked]).findings.map(\.ruleID).contains("AS015"))
    }

    /// AS016 (issue 13): the export's client states: one of 250 bytes or more, or one recorded for
    /// the default index (which has no batches). A client state is joined to no page.
    @Test(
        arguments: [
            (LocalEntry.clientState(indexName: "movies", bytes: 249), [String]()),
            (.clientState(indexName: "movies", bytes: 250), ["the client state is 250 bytes"]),
            (.clientState(indexName: nil, bytes: 12), ["defaultSearchableIndex does not support batches"]),
            (.clientState(indexName: nil, bytes: 300), ["defaultSearchableIndex", "300 bytes"]),
        ])
    func clientStatesAreAS016(entry: LocalEntry, says: [String]) {
        let report = Self.link([entry], [])
        let found = report.findings.filter { $0.rule == .as016 }
        #expect(found.count == says.count)
        for text in says {
            #expect(found.contains { $0.message.contains(text) }, "\(text): \(found.map(\.message))")
        }
        #expect(report.unmatched.isEmpty && report.links.isEmpty)
    }
}
