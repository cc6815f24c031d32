import CrawlStore
import Crawling
import Foundation
import LenientJSON
import Testing
import Verification

/// `crawl --consumers` on the fixture site and the torture server's `/consumers/` routes (issue 14
/// §3): IX010 fires on `/consumers/cloaked` only, naming the consumers that were refused or served
/// other metadata, and report.json shows what each consumer got.
@Suite("crawl --consumers: the page as each consumer gets it")
struct ConsumerCrawlTests {
    /// The IX010 messages of each page, by public URL.
    static func consumerFindings(_ store: CrawlStore) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        for (_, page) in try store.pagesByURL() {
            let messages = page.storedFindings.filter { $0.rule == .ix010 }.map(\.message)
            if !messages.isEmpty { found[page.finalURL, default: []] += messages }
        }
        return found
    }

    @Test func onlyTheCloakedRouteHasConsumerFindings() async throws {
        let folder = try temporaryFolder("consumers")
        let (store, summary) = try await CrawlTests.crawl(seedPath: "consumers/", folder: folder) { settings in
            settings.consumers = Consumer.all.map(\.name)
        }
        #expect(summary.fetched > 20)
        let base = try await TestSite.baseURL()
        let found = try Self.consumerFindings(store)
        #expect(Array(found.keys) == [base + "consumers/cloaked"], "\(found.keys.sorted())")
        let messages = (found[base + "consumers/cloaked"] ?? []).sorted()
        // The WAF's rule on "facebookexternalhit" also refuses Messages' previews, whose user agent has it.
        for name in ["facebookexternalhit", "messages"] {
            #expect(messages.contains { $0.hasPrefix("\(name) gets HTTP 403 (blocked)") }, "\(messages)")
        }
        for field in ["title", "meta description", "og:title"] {
            #expect(messages.contains { $0.hasPrefix("applebot gets \(field) ") }, "\(messages)")
        }
        #expect(messages.count == 5, "\(messages)")

        // report.json's analysis shows what each consumer got.
        let pages = try store.pagesByURL()
        let analysis = try #require(
            pages[base + "consumers/cloaked"]?.shownMarkup())
        let views = try #require(analysis["consumers"]?.arrayValue)
        #expect(views.map { $0["consumer"]?.stringValue ?? "" } == Consumer.all.map(\.name))
        let applebot = try #require(views.first { $0["consumer"]?.stringValue == "applebot" })
        #expect(applebot["reads"]?["og:title"]?.stringValue == "For Applebot only")
        #expect(views.first { $0["consumer"]?.stringValue == "facebookexternalhit" }?["status"]?.intValue == 403)
    }

    @Test func withoutConsumersNothingIsFetchedTwice() async throws {
        let folder = try temporaryFolder("no-consumers")
        let (store, _) = try await CrawlTests.crawl(seedPath: "consumers/", folder: folder)
        #expect(try Self.consumerFindings(store).isEmpty)
        let cloaked = try #require(try store.pagesByURL()[try await TestSite.baseURL() + "consumers/cloaked"])
        #expect(cloaked.storedAnalysis?.consumers.isEmpty == true)
    }
}
