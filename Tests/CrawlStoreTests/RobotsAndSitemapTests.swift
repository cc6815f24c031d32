import CrawlStore
import Testing

@Suite("Crawl store: robots.txt cache and sitemap reconciliation")
struct RobotsAndSitemapTests {
    @Test(
        "robots records are saved, replaced and loaded per origin",
        arguments: [
            CrawlStore.RobotsRecord(
                origin: "https://a.test:443", status: 200, body: Array("User-agent: *\nDisallow: /x\n".utf8),
                fetchedAt: 12.5, finalURL: "https://a.test/robots.txt"),
            CrawlStore.RobotsRecord(origin: "http://b.test:80", status: 404, body: [], fetchedAt: 1),
            CrawlStore.RobotsRecord(
                origin: "http://c.test:8080", status: nil, body: [], fetchedAt: 2, error: "connection refused"),
            CrawlStore.RobotsRecord(origin: "http://d.test:80", status: 200, body: [0, 0xFF, 0xFE, 10], fetchedAt: 3),
        ])
    func robots(_ record: CrawlStore.RobotsRecord) throws {
        let folder = try TemporaryFolder()
        let store = try CrawlStore(path: folder.database)
        #expect(try store.robots(origin: record.origin) == nil)
        try store.saveRobots(record)
        #expect(try store.robots(origin: record.origin) == record)
        var newer = record
        newer.fetchedAt += 100
        newer.body = Array("User-agent: *\nAllow: /\n".utf8)
        try store.saveRobots(newer)
        #expect(try store.robots(origin: record.origin) == newer)
        // The cache outlives runs.
        _ = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 0)
        #expect(try store.robots(origin: record.origin) == newer)
    }

    @Test("a sitemap harvest is stored in one go: locations, new frontier entries, skipped URLs")
    func harvest() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        #expect(try !store.hasSitemapEntries())
        _ = try store.enqueue([entry("/a")])
        let sitemap = "https://a.test/sitemap.xml"
        let added = try store.addSitemapHarvest(
            [
                .init(sitemapURL: sitemap, location: "https://a.test/a", key: "a.test/a", line: 3),
                .init(sitemapURL: sitemap, location: "https://a.test/b", key: "a.test/b", line: 4),
            ],
            enqueue: [entry("/a", discovery: .sitemap), entry("/b", discovery: .sitemap)],
            skipped: [SkippedURL(url: "https://b.test/x", key: nil, reason: "scope", detail: "host", foundOn: sitemap)])
        #expect(added.map(\.url) == ["https://a.test/b"])
        #expect(added.first?.id != nil)
        #expect(try store.hasSitemapEntries())
        #expect(try store.sitemapEntries().count == 2)
        #expect(try store.counts().queued == 2)
        #expect(try store.skippedURLs().map(\.url) == ["https://b.test/x"])
        // A new run starts without them.
        _ = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 200)
        #expect(try !store.hasSitemapEntries())
    }

    @Test("sitemap locations and pages are reconciled both ways, by key, final key or final URL")
    func reconciliation() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let sitemap = "https://a.test/sitemap.xml"
        let entries: [CrawlStore.SitemapEntryRecord] = [
            .init(sitemapURL: sitemap, location: "https://a.test/a", key: "a.test/a", line: 3),
            .init(sitemapURL: sitemap, location: "https://a.test/r2", key: "a.test/r2", line: 4),
            .init(sitemapURL: sitemap, location: "https://a.test/u/", key: "a.test/u/", line: 5),
            .init(sitemapURL: sitemap, location: "https://a.test/missing", key: "a.test/missing", line: 6),
            .init(
                sitemapURL: "https://a.test/s2.xml", location: "https://a.test/missing", key: "a.test/missing", line: 2),
        ]
        try store.addSitemapEntries(entries)
        try store.addSitemapEntries([entries[0]])  // the same (sitemap, location) again
        try store.addSitemapEntries([])
        #expect(try store.sitemapEntries() == entries)
        #expect(try store.pagesNotInSitemaps().isEmpty, "no pages yet")

        let frontier = try store.enqueue([entry("/a"), entry("/r"), entry("/u"), entry("/orphan")])
        _ = try store.claim(host: "a.test", limit: 4, now: 0)
        let records = [
            page(for: frontier[0]),
            // Redirected; the caller computed the final URL's key.
            page(for: frontier[1], finalURL: "https://a.test/r2", finalKey: "a.test/r2"),
            // Redirected; no final key: the final URL itself matches the location.
            page(for: frontier[2], finalURL: "https://a.test/u/"),
            page(for: frontier[3]),
        ]
        for record in records { _ = try store.complete(record, discovered: [], skipped: []) }

        #expect(try store.sitemapLocationsNotCrawled() == [entries[3], entries[4]])
        #expect(try store.pagesNotInSitemaps() == ["https://a.test/orphan"])
    }

    @Test("without sitemap entries no page is reported as missing from the sitemaps")
    func noSitemaps() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let frontier = try store.enqueue([entry("/a")])
        _ = try store.claim(host: "a.test", limit: 1, now: 0)
        _ = try store.complete(page(for: frontier[0]), discovered: [], skipped: [])
        #expect(try store.pagesNotInSitemaps().isEmpty)
        #expect(try store.sitemapLocationsNotCrawled().isEmpty)
    }

    @Test("pages of an older generation do not count as crawled by this run")
    func olderGenerations() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let frontier = try store.enqueue([entry("/a")])
        _ = try store.claim(host: "a.test", limit: 1, now: 0)
        _ = try store.complete(page(for: frontier[0]), discovered: [], skipped: [])
        try store.finishRun(at: 1)
        _ = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 2)
        let location = CrawlStore.SitemapEntryRecord(
            sitemapURL: "https://a.test/sitemap.xml", location: "https://a.test/a", key: "a.test/a", line: 1)
        try store.addSitemapEntries([location])
        #expect(try store.sitemapLocationsNotCrawled() == [location])
        #expect(try store.pagesNotInSitemaps().isEmpty)
    }
}
