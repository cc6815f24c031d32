import Foundation
import LoopbackServer
import SpotCheckTestSupport
import Testing

/// `Fixtures/html`, found from this file's path.
let fixtureRoot: String = {
    var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(3)  // Tests/LoopbackServerTests/FolderServerTests.swift
    return components.joined(separator: "/") + "/Fixtures/html"
}()

/// Starts `server`, runs `body` with it, and always stops it.
@discardableResult
func withServer<T>(
    _ start: () async throws -> RunningServer,
    _ body: (RunningServer) async throws -> T
) async throws -> T {
    let server = try await start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

@discardableResult
func withFolderServer<T>(root: String = fixtureRoot, _ body: (RunningServer, RawHTTPClient) async throws -> T)
    async throws -> T
{
    try await withServer({ try await FolderServer(root: root).start() }) { server in
        try await body(server, RawHTTPClient(port: server.port))
    }
}

/// The bytes of a fixture file (empty when it cannot be read, which fails the comparison).
func fixtureBytes(_ path: String) -> [UInt8] {
    FileManager.default.contents(atPath: fixtureRoot + path).map { Array($0) } ?? []
}

@Suite("Folder server (real HTTP on 127.0.0.1)")
struct FolderServerTests {
    @Test("/ answers the root index.html; port and baseURL are reported")
    func rootIndex() async throws {
        try await withFolderServer { server, client in
            #expect(server.port > 0)
            #expect(server.baseURL == "http://127.0.0.1:\(server.port)/")
            let answer = await client.fetch("/")
            #expect(answer.status == 200)
            #expect(answer.ending == .closed)
            #expect(answer.header("Content-Type") == "text/html")
            #expect(answer.body == fixtureBytes("/index.html"))
            #expect(answer.header("Content-Length") == String(fixtureBytes("/index.html").count))
        }
    }

    @Test("a folder without its slash is redirected (301) to it, query kept; with it, its index.html")
    func directoryRedirect() async throws {
        try await withFolderServer { _, client in
            let bare = await client.fetch("/movies")
            #expect(bare.status == 301)
            #expect(bare.header("Location") == "/movies/")
            let withQuery = await client.fetch("/movies?sort=year")
            #expect(withQuery.status == 301)
            #expect(withQuery.header("Location") == "/movies/?sort=year")
            let index = await client.fetch("/movies/")
            #expect(index.status == 200)
            #expect(index.body == fixtureBytes("/movies/index.html"))
            // A page whose name merely ends in index.html is an ordinary file.
            let page = await client.fetch("/broken/noindex.html")
            #expect(page.status == 200)
            #expect(page.body == fixtureBytes("/broken/noindex.html"))
        }
    }

    @Test(
        "Content-Type follows the extension",
        arguments: [
            ("/index.html", "text/html"),
            ("/robots.txt", "text/plain"),
            ("/sitemap.xml", "application/xml"),
            ("/css/site.css", "text/css"),
            ("/images/logo.png", "image/png"),
            ("/images/movies/up-poster.jpg", "image/jpeg"),
            ("/.well-known/apple-app-site-association", "application/json"),
        ]
    )
    func fixtureContentTypes(path: String, type: String) async throws {
        try await withFolderServer { _, client in
            let answer = await client.fetch(path)
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == type)
            #expect(answer.body == fixtureBytes(path))
        }
    }

    @Test("every listed extension has its type, over HTTP too; a folder without index.html is 404")
    func extensionTable() async throws {
        let expected = [
            "a.html": "text/html", "b.xml": "application/xml", "c.txt": "text/plain", "d.json": "application/json",
            "e.png": "image/png", "f.jpg": "image/jpeg", "g.JPEG": "image/jpeg", "h.gif": "image/gif",
            "i.webp": "image/webp", "j.svg": "image/svg+xml", "k.css": "text/css", "l.js": "text/javascript",
            "m.tar.gz": "application/gzip",
        ]
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("loopback-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in expected.keys {
            #expect(FileManager.default.createFile(atPath: "\(folder)/\(name)", contents: Data(name.utf8)))
        }
        #expect(FileManager.default.createFile(atPath: "\(folder)/unknown.zzz", contents: Data("?".utf8)))

        try await withFolderServer(root: folder) { _, client in
            for (name, type) in expected {
                #expect(FolderServer.contentType(forPath: "/x/\(name)") == type)
                let answer = await client.fetch("/\(name)")
                #expect(answer.status == 200, "\(name)")
                #expect(answer.header("Content-Type") == type, "\(name)")
                #expect(answer.text == name)
            }
            #expect(FolderServer.contentType(forPath: "/unknown.zzz") == nil)
            #expect(FolderServer.contentType(forPath: "/.hidden") == nil)
            #expect(FolderServer.contentType(forPath: "/README") == nil)
            let unknown = await client.fetch("/unknown.zzz")
            #expect(unknown.status == 200)
            #expect(unknown.header("Content-Type") == nil)
            #expect(await client.fetch("/empty/").status == 404)
        }
    }

    @Test("a missing file is 404 with a small HTML page; HEAD gets the headers only")
    func notFound() async throws {
        try await withFolderServer { _, client in
            let answer = await client.fetch("/movies/no-such-film.html")
            #expect(answer.status == 404)
            #expect(answer.header("Content-Type") == "text/html; charset=utf-8")
            #expect(answer.text.contains("<title>404 Not Found</title>"))
            #expect(answer.body.count < 512)
            let head = await client.fetch("/movies/no-such-film.html", method: "HEAD")
            #expect(head.status == 404)
            #expect(head.body.isEmpty)
            #expect(await client.fetch("/index.html", method: "POST").status == 404)
        }
    }

    @Test(
        "requests cannot leave the root (Fixtures/items.json sits one level up)",
        arguments: [
            "/../items.json", "/movies/../../items.json", "/%2e%2e/items.json", "/%2E%2E/items.json",
            "/movies/%2e%2e/%2e%2e/items.json", "/..%2fitems.json", "/movies%2f..%2f..%2fitems.json",
            "/%2e%2e%2fitems.json", "/..%5citems.json", "/movies/..\\..\\items.json", "/index.html%00.png",
            "/%zz", "/%c3%28.html",
        ]
    )
    func traversalRefused(target: String) async throws {
        let outside = try #require(FileManager.default.contents(atPath: fixtureRoot + "/../items.json"))
        try await withFolderServer { _, client in
            let answer = await client.fetch(target)
            #expect([400, 404].contains(answer.status), "\(target) → \(answer.status)")
            #expect(answer.body.count < 1_024)
            #expect(!answer.text.contains(String(decoding: outside.prefix(40), as: UTF8.self)))
        }
    }

    /// Issue 35 §6: `crawl FOLDER` served what a symbolic link in the folder pointed to outside it
    /// (a secret page's title and description went into report.json).
    @Test("a symbolic link that resolves outside the folder is 404; one that stays inside is served")
    func symbolicLinksStayInside() async throws {
        let base = try Scratch.folder("folder-links")
        let site = base + "/site"
        let outside = base + "/outside"
        let manager = FileManager.default
        try manager.createDirectory(atPath: site + "/sub", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("<title>Home</title>".utf8).write(to: URL(fileURLWithPath: site + "/index.html"))
        try Data("<title>Secret</title>".utf8).write(to: URL(fileURLWithPath: outside + "/secret.html"))
        try Data("<title>Secret index</title>".utf8).write(to: URL(fileURLWithPath: outside + "/index.html"))
        try manager.createSymbolicLink(atPath: site + "/leak.html", withDestinationPath: "../outside/secret.html")
        try manager.createSymbolicLink(atPath: site + "/dir", withDestinationPath: outside)
        try manager.createSymbolicLink(atPath: site + "/sub/up.html", withDestinationPath: "../index.html")
        try manager.createSymbolicLink(atPath: site + "/home.html", withDestinationPath: site + "/index.html")
        try await withFolderServer(root: site) { _, client in
            for path in ["/leak.html", "/dir/secret.html", "/dir/", "/dir", "/dir/index.html"] {
                let answer = await client.fetch(path)
                #expect(answer.status == 404, "\(path) → \(answer.status)")
                #expect(!answer.text.contains("Secret"), "\(path)")
            }
            for path in ["/sub/up.html", "/home.html", "/"] {
                let answer = await client.fetch(path)
                #expect(answer.status == 200, "\(path) → \(answer.status)")
                #expect(answer.text == "<title>Home</title>", "\(path)")
            }
        }
    }

    @Test("a percent-encoded name that stays inside the root is served")
    func encodedNameServed() async throws {
        try await withFolderServer { _, client in
            let answer = await client.fetch("/movies/%75p.html")
            #expect(answer.status == 200)
            #expect(answer.body == fixtureBytes("/movies/up.html"))
        }
    }

    @Test("Last-Modified and ETag are sent; If-None-Match and If-Modified-Since get 304 without a body")
    func conditionalRequests() async throws {
        try await withFolderServer { _, client in
            let first = await client.fetch("/about.html")
            let etag = try #require(first.header("ETag"))
            let lastModified = try #require(first.header("Last-Modified"))
            #expect(lastModified.hasSuffix(" GMT"))

            let byTag = await client.fetch("/about.html", headers: [("If-None-Match", etag)])
            #expect(byTag.status == 304)
            #expect(byTag.body.isEmpty)
            #expect(byTag.header("ETag") == etag)

            let byDate = await client.fetch("/about.html", headers: [("If-Modified-Since", lastModified)])
            #expect(byDate.status == 304)
            #expect(byDate.body.isEmpty)

            let otherTag = await client.fetch("/about.html", headers: [("If-None-Match", "W/\"other\"")])
            #expect(otherTag.status == 200)
            let old = await client.fetch(
                "/about.html", headers: [("If-Modified-Since", "Mon, 01 Jan 1990 00:00:00 GMT")])
            #expect(old.status == 200)
            #expect(old.body == fixtureBytes("/about.html"))

            // The directory index has the same validators as the file.
            let index = await client.fetch("/movies/")
            let indexTag = try #require(index.header("ETag"))
            #expect(await client.fetch("/movies/", headers: [("If-None-Match", indexTag)]).status == 304)
        }
    }

    /// The server reads files of up to 64 KiB whole here, so both paths are exercised with small
    /// files (an 8 MiB one made the test hog a cooperative thread for seconds under ASan, and the
    /// servers of the tests beside it starved).
    @Test("files are served byte for byte: empty, read whole, over the whole-read limit (streamed), and a byte range")
    func fileSizes() async throws {
        let folder = try Scratch.folder("loopback")
        // Bytes that differ at every offset modulo 251, so a chunk out of place changes the body.
        func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }
        let limit = 64 << 10
        let sizes = ["empty.bin": 0, "page.html": 50_000, "at-limit.bin": limit, "big.bin": 300_000]
        for (name, size) in sizes {
            #expect(FileManager.default.createFile(atPath: "\(folder)/\(name)", contents: Data(pattern(size))))
        }
        var server = FolderServer(root: folder)
        server.wholeFileLimit = limit
        try await withServer({ try await server.start() }) { running in
            let client = RawHTTPClient(port: running.port)
            for (name, size) in sizes {
                let answer = await client.fetch("/\(name)")
                #expect(answer.status == 200, "\(name)")
                #expect(answer.header("Content-Length") == String(size), "\(name)")
                // A Bool, so that a failure names the file instead of printing every byte.
                let sameBytes = answer.body == pattern(size)
                #expect(sameBytes, "\(name): \(answer.body.count) bytes received")
            }
            let range = await client.fetch("/page.html", headers: [("Range", "bytes=1000-1999")])
            #expect(range.status == 206)
            #expect(range.header("Content-Range") == "bytes 1000-1999/50000")
            #expect(range.body == Array(pattern(50_000)[1000..<2000]))
        }
    }

    /// The server here lets requests in flight run for 20 s after `stop()`, so an idle connection
    /// closed by the shutdown itself (at once) and one cut off at the limit (after 20 s) are far
    /// apart whatever the machine's load: a clean-clone CI run measured 2.13 s for the close
    /// under load, past the 1.9 s this test allowed against the default 2 s limit.
    /// `Scripts/sanitize.sh` sets SPOTCHECK_SANITIZED, and the test stays out there as before
    /// (docs/reliability.md).
    @Test(
        "keep-alive: several requests on one connection; stop() closes the idle connection at once",
        .disabled(
            if: ProcessInfo.processInfo.environment["SPOTCHECK_SANITIZED"] != nil,
            "a close timed under AddressSanitizer's slowdown"))
    func keepAlive() async throws {
        let limit = 20.0
        let server = try await FolderServer(root: fixtureRoot, shutdownLimit: .seconds(limit)).start()
        let (idle, idleContinuation) = AsyncStream<Void>.makeStream()
        let exchange = Task {
            var client = RawHTTPClient(port: server.port)
            client.timeout = limit + 10
            return await client.fetchKeepAlive(["/", "/about.html", "/images/logo.png"]) {
                idleContinuation.yield()
            }
        }
        for await _ in idle { break }
        let stopped = RawHTTPClient.monotonicSeconds()
        await server.stop()
        let (answers, closedAt) = await exchange.value
        #expect(answers.map(\.status) == [200, 200, 200])
        #expect(answers.last?.body == fixtureBytes("/images/logo.png"))
        // Measured from stop() to the close the client's own thread saw, not to stop()'s return.
        let closed = try #require(closedAt)
        #expect(closed - stopped < limit / 2, "closed \(closed - stopped) s after stop()")
    }

    @Test("stop() frees the port: connections are refused and the port can be bound again")
    func stopFreesPort() async throws {
        let server = try await FolderServer(root: fixtureRoot).start()
        let port = server.port
        let client = RawHTTPClient(port: port)
        #expect(await client.fetch("/").status == 200)
        await server.stop()
        await server.stop()  // a second stop returns at once
        #expect(await client.canConnect() == false)
        try await withServer({ try await FolderServer(root: fixtureRoot, port: port).start() }) { again in
            #expect(again.port == port)
            #expect(await client.fetch("/robots.txt").status == 200)
        }
    }

    @Test("start() throws, rather than hangs, for a port in use or a missing folder")
    func startFailures() async throws {
        try await withFolderServer { server, _ in
            await #expect(throws: (any Error).self) {
                let second = try await FolderServer(root: fixtureRoot, port: server.port).start()
                await second.stop()
            }
        }
        await #expect(throws: LoopbackServerError.notADirectory(fixtureRoot + "/nope")) {
            _ = try await FolderServer(root: fixtureRoot + "/nope").start()
        }
        await #expect(throws: LoopbackServerError.notADirectory(fixtureRoot + "/index.html")) {
            _ = try await FolderServer(root: fixtureRoot + "/index.html").start()
        }
    }
}
