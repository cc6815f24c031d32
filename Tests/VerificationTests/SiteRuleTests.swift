import Rulebook
import Testing
import Verification

@Suite("Site-level rules")
struct SiteRuleTests {
    static func page(
        _ path: String, title: String? = nil, description: String? = nil, image: String? = nil,
        argument: String? = nil, canonical: String? = nil, status: Int = 200
    ) -> SitePage {
        let url = "https://www.example.com/" + path
        return SitePage(
            url: url, status: status, isHTML: true, canonical: canonical ?? url, title: title ?? "Title of \(path)",
            contentDescription: description ?? "About \(path), in more words than the title has.",
            thumbnailURL: image ?? "https://www.example.com/images/\(path).png",
            appArgument: argument ?? url)
    }

    static func found(_ pages: [SitePage], sitemap: [SitemapListing] = []) -> [String] {
        SiteVerifier().verify(pages, sitemapListings: sitemap).map { "\($0.ruleID) \($0.url.dropFirst(24))" }
    }

    @Test func distinctPagesHaveNoFinding() {
        #expect(Self.found([Self.page("a"), Self.page("b"), Self.page("c")]) == [])
    }

    @Test func aTitleOnTwoPagesIsCT014OnBoth() {
        let pages = [Self.page("a", title: "Movies"), Self.page("b", title: " movies "), Self.page("c")]
        #expect(Self.found(pages) == ["CT014 a"])
        let finding = SiteVerifier().verify(pages).first
        #expect(
            finding?.message.contains("is on 2 pages: https://www.example.com/a, https://www.example.com/b") == true)
    }

    @Test func theSameImageOnThreePagesIsCT008() {
        let logo = "https://www.example.com/logo.png"
        #expect(Self.found([Self.page("a", image: logo), Self.page("b", image: logo), Self.page("c")]) == [])
        #expect(
            Self.found([Self.page("a", image: logo), Self.page("b", image: logo), Self.page("c", image: logo)])
                == ["CT008 a"])
    }

    @Test func theSameAppArgumentOnThreePagesIsSAB007() {
        let home = "https://www.example.com/"
        let pages = ["a", "b", "c"].map { Self.page($0, argument: home) }
        #expect(Self.found(pages) == ["SAB007 a"])
    }

    @Test func pagesThatFailedAreNotComparedForDuplicates() {
        let pages = [Self.page("a", title: "Oops"), Self.page("b", title: "Oops", status: 500)]
        #expect(Self.found(pages) == [])
    }

    @Test func aCanonicalToAMissingPageIsIX012() {
        let pages = [
            Self.page("a", canonical: "https://www.example.com/gone"), Self.page("gone", status: 404),
        ]
        #expect(Self.found(pages) == ["IX012 a"])
    }

    @Test func aCanonicalToANoindexOrBlockedPageIsIX012() {
        var target = Self.page("t")
        target.isNoindex = true
        #expect(Self.found([Self.page("a", canonical: target.url), target]) == ["IX012 a"])
        target.isNoindex = false
        target.applebotAllowed = false
        #expect(Self.found([Self.page("a", canonical: target.url), target]) == ["IX012 a"])
    }

    @Test func canonicalChainsAndCyclesAreIX013() {
        let chain = [
            Self.page("a", canonical: "https://www.example.com/b"),
            Self.page("b", canonical: "https://www.example.com/c"), Self.page("c"),
        ]
        #expect(Self.found(chain) == ["IX013 a"])
        let cycle = [
            Self.page("a", canonical: "https://www.example.com/b"),
            Self.page("b", canonical: "https://www.example.com/a"),
        ]
        #expect(Self.found(cycle) == ["IX013 a", "IX013 b"])
    }

    @Test func aSitemapListingADuplicateIsIX014() {
        let pages = [Self.page("a", canonical: "https://www.example.com/b"), Self.page("b")]
        let sitemap = [
            SitemapListing(
                location: "https://www.example.com/a", sitemapURL: "https://www.example.com/sitemap.xml", line: 3),
            SitemapListing(
                location: "https://www.example.com/b", sitemapURL: "https://www.example.com/sitemap.xml", line: 4),
        ]
        #expect(Self.found(pages, sitemap: sitemap) == ["IX014 a"])
    }

    @Test func aRuleSwitchedOffIsNotReported() throws {
        var configuration = RuleConfiguration()
        try configuration.set("CT014", "off", origin: "test")
        let pages = [Self.page("a", title: "Movies"), Self.page("b", title: "Movies")]
        #expect(SiteVerifier(configuration: configuration).verify(pages).isEmpty)
    }

    @Test func pagesThatDifferOnlyByAFragmentAreIX009() {
        let pages = [
            Self.page("a", canonical: "https://www.example.com/app#/movies"),
            Self.page("b", canonical: "https://www.example.com/app#/people"), Self.page("c"),
        ]
        #expect(Self.found(pages).filter { $0.hasPrefix("IX009") } == ["IX009 a", "IX009 b"])
        #expect(Self.found([Self.page("a", canonical: "https://www.example.com/app#/movies")]).isEmpty)
    }
}
