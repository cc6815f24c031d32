import BrowserRendering
import Foundation
import LoopbackServer
import SpotCheckTestSupport
import Testing

/// `ChromiumRenderer` against real headless Chromium and pages served on 127.0.0.1 (issue 14 §1).
@Suite(
    "headless Chromium: the DOM after scripts, requests asked first, bounded",
    .enabled(if: ChromiumForTests.runsTests, Comment(rawValue: ChromiumForTests.skipped)))
struct ChromiumRendererTests {
    /// A folder of pages, served while `body` runs.
    static func serving(_ pages: [String: String], _ body: (String) async throws -> Void) async throws {
        let folder = Scratch.path("render-site")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (path, text) in pages {
            let file = folder + "/" + path
            try FileManager.default.createDirectory(
                atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let server = try await FolderServer(root: folder).start()
        do {
            try await body(server.baseURL)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func renderer(timeout: Double = 10) throws -> ChromiumRenderer {
        try ChromiumRenderer(
            options: ChromiumRenderer.Options(concurrency: 2, timeout: timeout, userAgent: "SpotCheckTests/1.0"))
    }

    static let injecting = """
        <!doctype html><html><head><meta charset="utf-8"><title>Served</title>
        <script>
          var tag = document.createElement("meta");
          tag.setAttribute("property", "og:image");
          tag.setAttribute("content", "https://www.example.com/injected.png");
          document.head.appendChild(tag);
        </script>
        <script src="/blocked/effect.js"></script></head><body>é</body></html>
        """

    @Test func aScriptsChangesAreInTheDOMAndARefusedRequestIsNotMade() async throws {
        try await Self.serving([
            "index.html": Self.injecting,
            "blocked/effect.js": #"document.title = "The blocked script ran";"#,
        ]) { base in
            let renderer = try Self.renderer()
            defer { renderer.shutdown() }
            let page = try await renderer.render(base) { url in !url.contains("/blocked/") }
            #expect(page.html.hasPrefix("<!DOCTYPE html>"))
            #expect(page.html.contains(#"<meta property="og:image" content="https://www.example.com/injected.png">"#))
            #expect(page.html.contains("<title>Served</title>"), "the refused script did not run")
            #expect(page.html.contains("é"))
            #expect(page.finalURL == base)
            #expect(!page.timedOut)
            let blocked = page.requests.filter(\.blocked)
            #expect(blocked.map(\.url) == [base + "blocked/effect.js"])
            #expect(blocked.first?.resourceType == "Script")
            #expect(page.requests.contains { $0.resourceType == "Document" && !$0.blocked })
        }
    }

    /// The page's own document is the crawl's: it loads even when every other request is refused,
    /// whatever form its URL takes (no trailing slash here, Chromium adds one).
    @Test func thePagesOwnDocumentIsNeverRefused() async throws {
        try await Self.serving(["index.html": "<!doctype html><title>Home</title><link rel=stylesheet href=/a.css>"]) {
            base in
            let renderer = try Self.renderer()
            defer { renderer.shutdown() }
            let page = try await renderer.render(String(base.dropLast())) { _ in false }
            #expect(page.html.contains("<title>Home</title>"))
            let blocked = page.requests.filter(\.blocked)
            #expect(blocked.contains { $0.resourceType == "Stylesheet" })
            #expect(!blocked.contains { $0.resourceType == "Document" }, "\(blocked)")
        }
    }

    /// A script that moves the page elsewhere starts another document: the DOM read is the one it
    /// moved to, once that one is quiet, not a timeout.
    @Test func aScriptNavigationIsFollowedToTheDocumentItLoads() async throws {
        try await Self.serving([
            "index.html": "<!doctype html><title>First</title><script>location.replace('/second.html')</script>",
            "second.html": "<!doctype html><title>Second</title>",
        ]) { base in
            let renderer = try Self.renderer(timeout: 8)
            defer { renderer.shutdown() }
            let page = try await renderer.render(base) { _ in true }
            #expect(page.html.contains("<title>Second</title>"), "\(page.html)")
            #expect(page.finalURL == base + "second.html")
            #expect(!page.timedOut)
        }
    }

    @Test func aPageThatNeverGoesQuietEndsAtTheTimeoutWithItsDOM() async throws {
        let busy = """
            <!doctype html><html><head><title>Busy</title>
            <script>setInterval(function () { fetch("/poll?" + Math.random()).catch(function () {}); }, 100);</script>
            </head><body>busy</body></html>
            """
        try await Self.serving(["index.html": busy]) { base in
            let renderer = try Self.renderer(timeout: 2)
            defer { renderer.shutdown() }
            let page = try await renderer.render(base) { _ in true }
            #expect(page.timedOut)
            #expect(page.seconds >= 1.9 && page.seconds < 30, "\(page.seconds) s")
            #expect(page.html.contains("<title>Busy</title>"))
        }
    }

    @Test func tabsRenderConcurrentlyAndEachGetsItsOwnPage() async throws {
        let pages = Dictionary(
            uniqueKeysWithValues: (0..<6).map { ("p\($0).html", "<!doctype html><title>Page \($0)</title>") })
        try await Self.serving(pages) { base in
            let renderer = try Self.renderer()
            defer { renderer.shutdown() }
            let titles = await withTaskGroup(of: (Int, String).self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let page = try? await renderer.render(base + "p\(index).html") { _ in true }
                        return (index, page?.html ?? "")
                    }
                }
                var titles: [Int: String] = [:]
                for await (index, html) in group { titles[index] = html }
                return titles
            }
            for index in 0..<6 { #expect(titles[index]?.contains("<title>Page \(index)</title>") == true) }
        }
    }

    @Test func anUnreachablePageIsAnErrorNamingIt() async throws {
        let renderer = try Self.renderer()
        defer { renderer.shutdown() }
        do {
            _ = try await renderer.render("http://127.0.0.1:9/nothing.html") { _ in true }
            Issue.record("expected a navigation failure")
        } catch {
            #expect(error.description.contains("127.0.0.1:9"), "\(error)")
        }
    }

    @Test func shutdownEndsEveryChromiumProcessAndRemovesTheProfile() async throws {
        let renderer = try Self.renderer()
        #expect(try await renderer.version().contains("Chrom"))
        let profile = renderer.profileFolder
        #expect(ChromiumForTests.processes(containing: profile).contains(renderer.processID))
        renderer.shutdown()
        let deadline = ContinuousClock.now + .seconds(10)
        while !ChromiumForTests.processes(containing: profile).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ChromiumForTests.processes(containing: profile).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: profile))
    }
}

@Suite("headless Chromium missing")
struct ChromiumMissingTests {
    @Test func aMissingChromiumNamesThePackageToInstall() {
        do {
            _ = try ChromiumRenderer(
                options: ChromiumRenderer.Options(userAgent: "SpotCheckTests/1.0", executable: "/nonexistent/chromium"))
            Issue.record("expected chromiumMissing")
        } catch {
            #expect(error == .chromiumMissing(searched: ["/nonexistent/chromium"]))
            #expect(error.description.contains("apt-get install chromium"))
        }
    }
}
