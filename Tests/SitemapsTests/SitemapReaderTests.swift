import Foundation
import Sitemaps
import SpotCheckTestSupport
import Testing

@Suite("Sitemaps (sitemaps.org)")
struct SitemapReaderTests {
    static let urlset = """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc> https://example.com/a </loc><lastmod>2024-01-01</lastmod></url>
          <url><loc>https://example.com/q?x=1&amp;y=2</loc></url>
          <url><loc>https://other.example/b</loc></url>
          <url><loc><![CDATA[https://example.com/c]]></loc></url>
        </urlset>
        """

    @Test("urlset: locations decoded and trimmed, other hosts dropped with a reason")
    func urlsetEntries() throws {
        let sitemap = try SitemapReader.read(Array(Self.urlset.utf8), sitemapURL: "https://example.com/sitemap.xml")
        #expect(sitemap.kind == .urlset)
        #expect(
            sitemap.entries.map(\.location) == [
                "https://example.com/a", "https://example.com/q?x=1&y=2", "https://example.com/c",
            ])
        #expect(sitemap.entries.first?.lastModified == "2024-01-01")
        #expect(sitemap.dropped.map(\.reason) == ["host differs"])
    }

    @Test("a DOCTYPE is refused: entities are never expanded or loaded")
    func doctypeRefused() {
        let bomb = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/&lol2;</loc></url></urlset>
            """
        #expect(throws: SitemapError.self) {
            try SitemapReader.read(Array(bomb.utf8), sitemapURL: "https://example.com/s.xml")
        }
    }

    @Test("the location rule: folder, scheme, port, user information")
    func locationRule() {
        let sitemap = "http://example.com/catalog/sitemap.xml"
        #expect(
            SitemapLocation.violation(
                of: "http://example.com/catalog/show?item=1", sitemapURL: sitemap, checkFolder: true) == nil)
        #expect(
            SitemapLocation.violation(of: "http://example.com/image/x", sitemapURL: sitemap, checkFolder: true) != nil)
        #expect(
            SitemapLocation.violation(of: "https://example.com/catalog/x", sitemapURL: sitemap, checkFolder: true)
                == "scheme differs")
        #expect(
            SitemapLocation.violation(of: "http://example.com:8080/catalog/x", sitemapURL: sitemap, checkFolder: true)
                == "port differs")
    }

    /// Issue 17 §2.2: libxml2's XML parser compares each attribute with every earlier one;
    /// 100,000 on `<urlset>` took 2 s in a debug build, and a 50 MiB sitemap holds millions. The
    /// child process gets 20 s of CPU for 1,000,000.
    @Test("1,000,000 attributes on <urlset> are cut at the cap, with a warning; the entries are read")
    func attributeFloodIsCapped() async {
        await #expect(processExitsWith: .success) {
            var limit = rlimit(rlim_cur: 20, rlim_max: 20)
            setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
            let flood = (0..<1_000_000).map { " a\($0)=\"\($0)\"" }.joined()
            let fake = "<b" + (0..<300).map { " a\($0)" }.joined() + ">"
            let xml =
                #"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9""# + flood
                + "><!-- <b \(flood)> --><url>\n<loc><![CDATA[https://example.com/\(fake)]]></loc></url></urlset>"
            let sitemap = try? SitemapReader.read(Array(xml.utf8), sitemapURL: "https://example.com/sitemap.xml")
            guard let sitemap, sitemap.entries.map(\.location) == ["https://example.com/\(fake)"],
                sitemap.entries.first?.line == 1,
                sitemap.warnings == [
                    "line 1: 1 start tag(s) with more than 256 attributes; the rest of each was not read"
                ]
            else { exit(2) }
        }
    }

    /// FuzzSitemap's finding (2026-11-26, `Fuzz/Regressions/FuzzSitemap/doctype-entities-leak`):
    /// entity declarations in a DOCTYPE make libxml2 build a document of its own to hold them even
    /// under a SAX handler, which the parser context does not free: 29 KB lost per sitemap read.
    /// In a child process (nothing else allocating), 2,000 reads must leave its memory where it was.
    @Test("a DOCTYPE with entity declarations is refused and leaks nothing")
    func doctypeEntitiesLeakNothing() async {
        await #expect(processExitsWith: .success) {
            var url = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { url.deleteLastPathComponent() }
            let input = url.appendingPathComponent("Fuzz/Regressions/FuzzSitemap/doctype-entities-leak")
            guard let bytes = try? Array(Data(contentsOf: input)) else { exit(3) }
            func read() -> Bool {
                (try? SitemapReader.read(bytes, sitemapURL: "https://example.com/sitemap.xml")) == nil
            }
            /// Resident bytes (`/proc/self/statm`'s second field, in pages).
            func resident() -> Int {
                let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ")
                return (fields.flatMap { $0.count > 1 ? Int($0[1]) : nil } ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
            }
            for _ in 0..<50 where !read() { exit(4) }
            // AddressSanitizer (`make sanitize`) holds freed memory in quarantine: resident memory
            // grows there without a leak.
            if dlsym(nil, "__asan_init") != nil { exit(0) }
            let before = resident()
            for _ in 0..<2_000 where !read() { exit(4) }
            // Before the fix: 2,000 × 29 KB = 58 MB.
            if resident() - before > 16 << 20 { exit(2) }
        }
    }

    @Test("a dropped location is kept shortened, with its length")
    func droppedLocationsAreShortened() throws {
        let long = "https://example.com/" + String(repeating: "a", count: 5_000_000)
        let xml =
            #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>\#(long)</loc></url></urlset>"#
        let sitemap = try SitemapReader.read(Array(xml.utf8), sitemapURL: "https://example.com/sitemap.xml")
        let dropped = try #require(sitemap.dropped.first)
        #expect(dropped.reason == "2,048 characters or more")
        #expect(dropped.location.hasPrefix("https://example.com/aaa"))
        #expect(dropped.location.hasSuffix("… (5000020 bytes in all)"))
        #expect(dropped.location.count == SitemapReader.maximumDroppedLocationLength + 24)
    }

    @Test("truncated and non-sitemap documents are refused with a reason")
    func refused() {
        #expect(throws: SitemapError.self) {
            try SitemapReader.read(
                Array("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/".utf8),
                sitemapURL: "https://e.com/s.xml")
        }
        #expect(throws: SitemapError.self) {
            try SitemapReader.read(Array("<html><body>hi</body></html>".utf8), sitemapURL: "https://e.com/s.xml")
        }
    }

    static let sharedFolder = SharedCorpora.url("sitemaps")

    /// `../shared/corpora/sitemaps/cases.json` (present in CI): every case with a file.
    @Test(
        "shared sitemap cases",
        .enabled(
            if: SharedCorpora.isPresent("sitemaps/cases.json"),
            "../shared/corpora/sitemaps/cases.json is not present"))
    func sharedCases() throws {
        let folder = Self.sharedFolder
        let data = try Data(contentsOf: folder.appendingPathComponent("cases.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        var failures: [String] = []
        var passed = 0
        for entry in cases {
            let id = entry["id"] as? String ?? "?"
            for check in entry["checks"] as? [[String: Any]] ?? [] {
                let url = check["url"] as? String ?? ""
                let sitemap = check["sitemap_url"] as? String ?? ""
                let valid = SitemapLocation.violation(of: url, sitemapURL: sitemap, checkFolder: true) == nil
                if valid != (check["valid"] as? Bool) { failures.append("\(id): \(url) valid should be \(!valid)") }
            }
            guard let sitemapURL = entry["sitemap_url"] as? String else { continue }
            if entry["optional"] as? Bool == true { continue }
            let body: [UInt8]
            if let name = entry["file"] as? String {
                body = try [UInt8](Data(contentsOf: folder.appendingPathComponent("fixtures/" + name)))
            } else if let recipe = entry["generate"] as? [String: Any] {
                body = Self.generate(recipe)
            } else {
                continue
            }
            let outcome = Result { () throws(SitemapError) -> Sitemap in
                try SitemapReader.read(body, sitemapURL: sitemapURL)
            }
            var acceptable = [entry]
            acceptable += (entry["alternatives"] as? [[String: Any]]) ?? []
            let matches = acceptable.contains { expected in
                switch (expected["expect"] as? String, outcome) {
                case ("reject", .failure): return true
                case ("urls", .success(let sitemap)):
                    return sitemap.entries.map(\.location) == (expected["urls"] as? [String] ?? [])
                case ("urls_count", .success(let sitemap)):
                    return sitemap.entries.count == expected["urls_count"] as? Int
                case ("sitemaps", .success(let sitemap)):
                    return sitemap.kind == .sitemapIndex
                        && sitemap.entries.map(\.location) == (expected["sitemaps"] as? [String] ?? [])
                default: return false
                }
            }
            let forbidden = (entry["must_not_contain"] as? [String] ?? [])
            let leaked = (try? outcome.get())?.entries.contains { forbidden.contains($0.location) } ?? false
            if matches && !leaked {
                passed += 1
            } else {
                let got: String
                switch outcome {
                case .success(let sitemap): got = "\(sitemap.kind.rawValue) \(sitemap.entries.map(\.location))"
                case .failure(let error): got = "rejected: \(error)"
                }
                failures.append("\(id): expected \(entry["expect"] ?? "?"), got \(got)")
            }
        }
        print("shared sitemap cases: \(passed) passed")
        #expect(passed >= 41)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    static func generate(_ recipe: [String: Any]) -> [UInt8] {
        let count = recipe["count"] as? Int ?? 0
        let from = recipe["i_from"] as? Int ?? 1
        let template = recipe["loc"] as? String ?? ""
        let locations = (from..<(from + count)).map { template.replacingOccurrences(of: "{i}", with: String($0)) }
        switch recipe["kind"] as? String {
        case "text":
            return Array(locations.joined(separator: "\n").utf8)
        case "sitemapindex":
            let body = locations.map { "<sitemap><loc>\($0)</loc></sitemap>" }.joined()
            return Array(
                ("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" + body + "</sitemapindex>").utf8
            )
        default:
            let head = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
            let body = locations.map { "<url><loc>\($0)</loc></url>" }.joined() + "</urlset>"
            var padding = 0
            if let total = recipe["pad_spaces_before_first_url_to_total_bytes"] as? Int {
                padding = total - head.utf8.count - body.utf8.count
            }
            return Array(head.utf8) + [UInt8](repeating: 0x20, count: max(0, padding)) + Array(body.utf8)
        }
    }
}
