import Crawling
import Foundation
import LenientJSON
import Reports
import SpotCheckTestSupport
import Synchronization
import Testing
import Verification

@testable import CrawlJobs

/// The crawl as a library call: a request in, an outcome (or a typed failure) out, events in order.
@Suite("CrawlJob", .serialized)
struct CrawlJobTests {
    static let fixtures: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/html").path
    }()

    static func folder(_ name: String) -> String {
        Scratch.path("job-\(name)")
    }

    static func request(seed: String?, output: String, formats: Set<ReportFormat> = [.json]) -> CrawlRequest {
        CrawlRequest(
            seed: seed, settings: CrawlSettings(seed: "", timeout: 5), output: output,
            reportFiles: ReportFiles(formats: formats, toolVersion: "test"))
    }

    @Test("a served folder is crawled end to end: outcome, files, and events in order")
    func fixtureSite() async throws {
        let output = Self.folder("fixture")
        let events = Mutex<[CrawlEvent]>([])
        let outcome = try await CrawlJob(
            Self.request(seed: Self.fixtures, output: output, formats: [.json, .sarif, .html])
        )
        .run { event in events.withLock { $0.append(event) } }
        #expect(outcome.summary.fetched == 42)
        #expect(outcome.totals.pages == 42)
        #expect(outcome.seedNotFetched == nil)
        #expect(outcome.severitiesFound.contains(.error))
        for file in ["report.json", "candidates.jsonl", "findings.sarif", "index.html", "crawl.sqlite"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + file), "\(file)")
        }
        let seen = events.withLock { $0 }
        let finished = try #require(seen.firstIndex { if case .crawlFinished = $0 { true } else { false } })
        let firstFindings = try #require(seen.firstIndex { if case .page = $0 { true } else { false } })
        let site = try #require(seen.firstIndex { if case .siteFindings = $0 { true } else { false } })
        #expect(finished < firstFindings && firstFindings < site)
        let wrote = seen.compactMap { if case .wrote(let path) = $0 { path } else { nil } }
        #expect(Set(wrote.map { ($0 as NSString).lastPathComponent }) == ["findings.sarif", "index.html"])
    }

    @Test(
        "each failure has its kind",
        arguments: [
            ("not a url or folder", nil as String?, CrawlJobError.Kind.cannotCrawl),
            ("FIXTURES", "missing-items.json", .localItemsUnreadable),
        ])
    func failuresHaveKinds(seed: String, items: String?, kind: CrawlJobError.Kind) async throws {
        let output = Self.folder("failure")
        var request = Self.request(seed: seed == "FIXTURES" ? Self.fixtures : seed, output: output)
        request.itemsFile = items.map { output + "/" + $0 }
        let error = await #expect(throws: CrawlJobError.self) { try await CrawlJob(request).run() }
        #expect(error?.kind == kind, "\(String(describing: error))")
    }

    @Test("nothing to resume is a crawl failure naming the folder")
    func nothingToResume() async throws {
        let output = Self.folder("resume")
        var request = Self.request(seed: nil, output: output)
        request.resume = true
        let error = await #expect(throws: CrawlJobError.self) { try await CrawlJob(request).run() }
        #expect(error?.kind == .cannotCrawl)
        #expect(error?.message.contains(output) == true)
    }

    /// Changed in issue 15 §2: the baseline is read before the crawl (it was read after the
    /// reports were written, so a bad one cost a whole crawl, and a folder crawled into again was
    /// compared with the report the run had just written).
    @Test("an unreadable --baseline names the file before the crawl starts; nothing is written")
    func unreadableBaseline() async throws {
        let output = Self.folder("baseline")
        var request = Self.request(seed: Self.fixtures, output: output)
        request.baseline = output + "-no-such-report.json"
        let error = await #expect(throws: CrawlJobError.self) { try await CrawlJob(request).run() }
        #expect(error?.kind == .baselineUnreadable)
        #expect(error?.message.contains("no-such-report.json: no such file") == true)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a --write-baseline whose folder does not exist fails before the crawl starts")
    func unwritableBaselineFile() async throws {
        let output = Self.folder("write-baseline")
        var request = Self.request(seed: Self.fixtures, output: output)
        request.writeBaseline = output + "-missing/baseline.json"
        let error = await #expect(throws: CrawlJobError.self) { try await CrawlJob(request).run() }
        #expect(error?.kind == .outputNotWritable)
        #expect(error?.message.contains("does not exist") == true)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("more seeds than --max-pages admits is a bad request, said before anything is fetched")
    func seedsOverTheBudget() async throws {
        let output = Self.folder("budget")
        var request = Self.request(seed: Self.fixtures, output: output)
        request.settings.maximumPages = 2
        request.moreSeeds = ["/movies/up.html", "/about.html"]
        let error = await #expect(throws: CrawlJobError.self) { try await CrawlJob(request).run() }
        #expect(error?.kind == .badRequest)
        #expect(error?.message.contains("--max-pages 3") == true)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Issue 17 §2.5: two crawls into one folder (two `--resume` at once lost frontier entries):
    /// the second is refused, naming the folder and the process that holds it; once the first
    /// ends, the folder can be crawled again.
    @Test func aFolderBeingCrawledIsRefusedToASecondCrawl() async throws {
        let output = Self.folder("locked")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        var held: CrawlFolderLock? = try CrawlFolderLock(folder: output)
        let error = await #expect(throws: CrawlJobError.self) {
            try await CrawlJob(Self.request(seed: Self.fixtures, output: output)).run()
        }
        #expect(error?.kind == .cannotCrawl)
        #expect(
            error?.message.contains("another spotcheck crawl (process \(getpid()))") == true,
            "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: output + "/report.json"))
        withExtendedLifetime(held) {}
        held = nil
        let outcome = try await CrawlJob(Self.request(seed: Self.fixtures, output: output)).run()
        #expect(outcome.summary.fetched == 42)
    }

    /// Issue 35 §7: a `crawl.lock` planted as a symbolic link had its target truncated and
    /// overwritten with the process id. It is refused (exit 5, outputNotWritable), its target
    /// untouched; so is a FIFO, without waiting.
    @Test func aPlantedLockSymbolicLinkIsNotFollowed() throws {
        let output = Self.folder("planted-lock")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        let target = output + "/precious.txt"
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(
            atPath: output + "/" + CrawlFolderLock.fileName, withDestinationPath: target)
        let error = #expect(throws: CrawlJobError.self) { _ = try CrawlFolderLock(folder: output) }
        #expect(error?.kind == .outputNotWritable)
        #expect(error?.message.contains("crawl.lock: cannot be created (it is a symbolic link") == true)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")

        let fifoFolder = Self.folder("planted-fifo-lock")
        try FileManager.default.createDirectory(atPath: fifoFolder, withIntermediateDirectories: true)
        #expect(mkfifo(fifoFolder + "/" + CrawlFolderLock.fileName, 0o600) == 0)
        let fifoError = #expect(throws: CrawlJobError.self) { _ = try CrawlFolderLock(folder: fifoFolder) }
        #expect(fifoError?.message.contains("not a regular file") == true)
    }
}

/// Issue 30 §5: in a served folder, a URL no file answers is located at the link to it, in the
/// file that links to it (an HTML page's `<a>`, a sitemap's `<loc>`), in every output.
@Suite("CrawlJob: broken links located where they are written", .serialized)
struct BrokenLinkLocationTests {
    @Test func aBrokenLinkIsAtItsLineInTheLinkingFile() async throws {
        let site = Scratch.path("broken-links-site")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        let page = """
            <!doctype html>
            <html><head><title>Home</title></head>
            <body>
            <p>Films</p>
            <a href="films/gone.html">Gone</a>
            </body></html>
            """
        try Data(page.utf8).write(to: URL(fileURLWithPath: site + "/index.html"))
        let output = Scratch.path("broken-links-out")
        let annotations = Mutex("")
        var request = CrawlJobTests.request(seed: site, output: output, formats: [.json, .github])
        request.reportFiles.annotationOutput = { text in annotations.withLock { $0 += text } }
        _ = try await CrawlJob(request).run()
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: output + "/report.json", encoding: .utf8), lenient: false)
                .value)
        let gone = try #require(
            report["pages"]?.arrayValue?.first { $0["url"]?.stringValue?.hasSuffix("/films/gone.html") == true })
        #expect(gone["status"] == 404)
        #expect(gone["file"] == nil)
        let linkedFrom = try #require(gone["linkedFrom"])
        let linkingFile = try #require(linkedFrom["file"]?.stringValue)
        #expect(linkingFile == SourceFiles.root().path(ofFile: site + "/index.html"))
        #expect(linkedFrom["line"] == 5)
        #expect(gone["findings"]?[0]?["rule"] == "IX004")
        #expect(gone["findings"]?[0]?["line"] == 5)
        let ix004 = annotations.withLock { $0 }.split(separator: "\n").first { $0.contains("SpotCheck IX004") }
        #expect(ix004?.contains("file=\(linkingFile),line=5,") == true, "\(ix004 ?? "")")
    }
}
