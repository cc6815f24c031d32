import CrawlStore
import Crawling
import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing
import TortureServer

/// Issue 15 §2, CI gating through the `spotcheck` child process: baselines (`--baseline`,
/// `--write-baseline`), request headers and basic auth for staging sites (`--header`,
/// `--basic-auth`), several seeds and list mode (`--urls-from`).
@Suite("CI gating: baselines, credentials, seeds", .serialized)
struct GatingTests {
    static let fixtures = TestSite.fixtureRoot

    static func json(_ path: String) throws -> JSONValue {
        try #require(JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8), lenient: false).value)
    }

    /// Where `value` breaks the published schema `docs/NAME` (empty: it follows it).
    static func schemaProblems(_ value: JSONValue, _ name: String) throws -> [String] {
        JSONSchemaCheck(root: try json(TestSite.projectRoot.appendingPathComponent("docs/" + name).path)).problems(
            value)
    }

    // MARK: - Baselines

    /// Four pages of the fixture site (a few findings each, SAB003 among them), checked in list mode
    /// to keep the test light (the suites run in parallel with timing-sensitive ones).
    static func fewPages(in folder: String) throws -> [String] {
        let list = "/\n/broken/sab-app-id-not-digits.html\n/broken/applinks-missing-url.html\n/movies/up.html\n"
        try Data(list.utf8).write(to: URL(fileURLWithPath: folder + "/pages.txt"))
        return [Self.fixtures, "--urls-from", folder + "/pages.txt"]
    }

    @Test("crawl: --write-baseline records every finding; with --baseline only new findings are listed and fail")
    func crawlBaseline() async throws {
        let executable = try spotcheckExecutable()
        let tmp = try temporaryFolder("gating-crawl-baseline")
        let pages = try Self.fewPages(in: tmp)
        let first = try await runProcess(
            executable, ["crawl"] + pages + ["--output", tmp + "/old", "--quiet", "--write-baseline", tmp + "/b.json"])
        #expect(first.status == 0, "\(first.output)")
        let file = try Self.json(tmp + "/b.json")
        #expect(try Self.schemaProblems(file, "baseline.schema.json") == [])
        #expect(file["kind"] == "baseline")
        #expect(file["schemaVersion"] == 1)
        let accepted = file["findings"]?.arrayValue?.reduce(0) { $0 + ($1["count"]?.intValue ?? 0) } ?? 0
        let oldSummary = try Self.json(tmp + "/old/report.json")["summary"]?["findings"]
        let oldTotal = ["error", "warning", "info"].reduce(0) { $0 + (oldSummary?[$1]?.intValue ?? 0) }
        #expect(accepted == oldTotal && accepted >= 3)

        // --app-id adds one finding (SAB020): the only one listed, counted and failing.
        let second = try await runProcess(
            executable,
            ["crawl"] + pages + [
                "--app-id", "1234567890", "--baseline", tmp + "/b.json", "--output", tmp + "/new", "--fail-on", "error",
                "--format", "json,sarif,junit", "--verbose",
            ])
        #expect(second.status == 1, "\(second.output)")
        #expect(second.output.contains("html/broken/sab-app-id-not-digits.html:13:157: error SAB020"))
        #expect(!second.output.contains("error SAB003"), "a known finding was listed: \(second.output)")
        #expect(
            second.output.contains(
                "baseline \(tmp)/b.json: \(oldTotal) known findings suppressed, 1 new (1 error, 0 warning, 0 info)"))
        #expect(
            second.output.contains(
                "--fail-on error: 1 new finding at or above error (1 error), so the exit status is 1; they are listed in "
                    + "\(tmp)/new/report.json (the baseline \(tmp)/b.json suppressed \(oldTotal) known findings)"))
        let report = try Self.json(tmp + "/new/report.json")
        #expect(try Self.schemaProblems(report, "report.schema.json") == [])
        let baseline = report["summary"]?["baseline"]
        #expect(baseline?["format"] == "baseline")
        #expect(baseline?["suppressed"]?.intValue == oldTotal)
        #expect(baseline?["new"] == 1)
        #expect(baseline?["newBySeverity"] == ["error": 1, "warning": 0, "info": 0])
        #expect(report["summary"]?["findings"]?["byRule"]?["SAB003"] == 1, "report.json keeps every finding")
        let results = try Self.json(tmp + "/new/findings.sarif")["runs"]?[0]?["results"]?.arrayValue ?? []
        #expect(results.filter { $0["suppressions"] != nil }.count == oldTotal)
        #expect(results.filter { $0["baselineState"] == "new" }.map { $0["ruleId"] } == ["SAB020"])
        let junit = try String(contentsOfFile: tmp + "/new/junit.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"1\""))

        // Nothing new: --fail-on info passes.
        let third = try await runProcess(
            executable,
            ["crawl"] + pages + ["--baseline", tmp + "/b.json", "--output", tmp + "/same", "--fail-on", "info"])
        #expect(third.status == 0, "\(third.output)")
        #expect(third.output.contains("\(oldTotal) known findings suppressed, 0 new"))
    }

    @Test("crawl: a report.json as --baseline is still compared, and its findings are the known set")
    func reportAsBaseline() async throws {
        let executable = try spotcheckExecutable()
        let tmp = try temporaryFolder("gating-report-baseline")
        let pages = try Self.fewPages(in: tmp)
        let folder = tmp + "/site"
        let first = try await runProcess(executable, ["crawl"] + pages + ["--output", folder, "--quiet"])
        #expect(first.status == 0, "\(first.output)")
        // Crawled again into the same folder: compared with its previous report, not with itself.
        let second = try await runProcess(
            executable,
            ["crawl"] + pages + [
                "--app-id", "1234567890", "--baseline", folder, "--output", folder, "--fail-on", "error",
            ])
        #expect(second.status == 1, "\(second.output)")
        #expect(second.output.contains("since the baseline: 0 findings fixed, 1 new, 0 candidates gained, 0 lost"))
        #expect(second.output.contains("1 new finding at or above error (1 error)"), "\(second.output)")
        let diff = try Self.json(folder + "/baseline-diff.json")
        #expect(diff["findingsNew"]?.arrayValue?.map { $0["rule"] } == ["SAB020"])
        #expect(try Self.json(folder + "/report.json")["summary"]?["baseline"]?["format"] == "report")
    }

    @Test("validate: a baseline survives lines moved and re-indented markup; new findings still fail")
    func validateBaselineSurvivesLineShifts() async throws {
        let executable = try spotcheckExecutable()
        let tmp = try temporaryFolder("gating-validate-baseline")
        try FileManager.default.createDirectory(atPath: tmp + "/site", withIntermediateDirectories: true)
        let page = try String(
            contentsOfFile: Self.fixtures + "/broken/sab-app-id-not-digits.html", encoding: .utf8)
        try Data(page.utf8).write(to: URL(fileURLWithPath: tmp + "/site/page.html"))
        let first = try await runProcess(
            executable, ["validate", "site", "--output", "out1", "--write-baseline", "baseline.json"], in: tmp)
        #expect(first.status == 0, "\(first.output)")
        let entries = try Self.json(tmp + "/baseline.json")["findings"]?.arrayValue ?? []
        #expect(entries.contains { $0["rule"] == "SAB003" && $0["page"] == "site/page.html" })

        // Five lines earlier in the file, the tag split over lines: the same findings.
        let moved =
            "\n\n\n\n\n"
            + page.replacingOccurrences(
                of: "<meta name=\"apple-itunes-app\" ", with: "<meta\n      name=\"apple-itunes-app\"\n      ")
        #expect(moved != page)
        try Data(moved.utf8).write(to: URL(fileURLWithPath: tmp + "/site/page.html"))
        let second = try await runProcess(
            executable, ["validate", "site", "--output", "out2", "--baseline", "baseline.json", "--fail-on", "info"],
            in: tmp)
        #expect(second.status == 0, "\(second.output)")
        let known = "\(entries.count) known finding\(entries.count == 1 ? "" : "s") suppressed, 0 new"
        #expect(second.output.contains(known), "\(second.output)")
        #expect(!second.output.contains("SAB003 line"), "a known finding was listed: \(second.output)")
        let report = try Self.json(tmp + "/out2/report.json")
        #expect(report["summary"]?["baseline"]?["suppressed"]?.intValue == entries.count)

        let third = try await runProcess(
            executable,
            [
                "validate", "site", "--output", "out3", "--baseline", "baseline.json", "--app-id", "1234567890",
                "--fail-on", "error",
            ], in: tmp)
        #expect(third.status == 1, "\(third.output)")
        #expect(third.output.contains("error SAB020"))
        #expect(third.output.contains("--fail-on error: 1 new finding at or above error"), "\(third.output)")
    }

    // MARK: - Credentials

    static let secrets = [
        TortureServer.stagingPassword, "k3y-value", "c00kie-value",
        Data("\(TortureServer.stagingUser):\(TortureServer.stagingPassword)".utf8).base64EncodedString(),
    ]

    static func credentialArguments() -> [String] {
        [
            "--basic-auth", "\(TortureServer.stagingUser):\(TortureServer.stagingPassword)", "--header",
            "X-Staging-Key: k3y-value", "--header", "Cookie: session=c00kie-value",
        ]
    }

    @Test("--header and --basic-auth reach the staging origin only, and no report or store holds them")
    func credentialsForAStagingSite() async throws {
        let executable = try spotcheckExecutable()
        let base = try await TestSite.baseURL()
        let port = String(base.split(separator: ":").last?.filter(\.isNumber) ?? "")
        let tmp = try temporaryFolder("gating-credentials")
        let common = ["crawl", base + "staging/home", "--allow-host", "localhost", "--no-sitemaps", "--quiet"]

        // Without them, the staging site answers 401.
        let locked = try await runProcess(executable, common + ["--output", tmp + "/locked"])
        #expect(locked.status == 0, "\(locked.output)")
        let lockedPages = try Self.json(tmp + "/locked/report.json")["pages"]?.arrayValue ?? []
        #expect(lockedPages.map { $0["status"] } == [401])

        let before = TortureServer.seenRequests(pathPrefix: "/").count
        let open = try await runProcess(
            executable,
            common + Self.credentialArguments() + ["--output", tmp + "/open", "--format", "json,sarif,junit,html"])
        #expect(open.status == 0, "\(open.output)")
        let report = try Self.json(tmp + "/open/report.json")
        let status = Dictionary(
            (report["pages"]?.arrayValue ?? []).map { ($0["url"]?.stringValue ?? "", $0["status"]?.intValue ?? 0) },
            uniquingKeysWith: { first, _ in first })
        #expect(status[base + "staging/home"] == 200)
        #expect(status[base + "staging/page2"] == 200)
        // A redirect to another origin, and a link there, are asked for without them: 401.
        #expect(status[base + "staging/away"] == 401)
        #expect(status["http://localhost:\(port)/staging/elsewhere"] == 401)

        let seen = TortureServer.seenRequests(pathPrefix: "/").dropFirst(before)
        let onStaging = seen.filter { $0.host == "127.0.0.1:\(port)" && $0.path.hasPrefix("/staging/") }
        let elsewhere = seen.filter { $0.host == "localhost:\(port)" }
        #expect(onStaging.count >= 3)
        #expect(onStaging.allSatisfy { $0.credentialHeaders == Set(TortureServer.credentialHeaders) }, "\(onStaging)")
        #expect(
            Set(elsewhere.map(\.path)).isSuperset(of: ["/staging/landing", "/staging/elsewhere", "/images/logo.png"]))
        #expect(elsewhere.allSatisfy { $0.credentialHeaders.isEmpty }, "\(elsewhere)")

        // The names and origins are recorded; no value is in any file the crawl wrote.
        #expect(try Self.schemaProblems(report, "report.schema.json") == [])
        // (The stored settings are JSONEncoder's: their key order is not fixed.)
        let recorded = report["crawl"]?["settings"]?["credentials"]
        #expect(recorded?["headers"] == ["X-Staging-Key", "Cookie", "Authorization"])
        #expect(recorded?["origins"] == [.string("http://127.0.0.1:\(port)")])
        let files = try FileManager.default.contentsOfDirectory(atPath: tmp + "/open")
        #expect(files.contains("crawl.sqlite") && files.contains("index.html"))
        for name in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: tmp + "/open/" + name))
            for secret in Self.secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)")
            }
        }
        for secret in Self.secrets { #expect(!open.output.contains(secret)) }
    }

    @Test("--resume needs the same --header and --basic-auth again, as they are never stored")
    func resumeAsksForTheCredentialsAgain() async throws {
        let executable = try spotcheckExecutable()
        let base = try await TestSite.baseURL()
        let folder = try temporaryFolder("gating-resume-credentials")
        // An unfinished crawl that was started with the credentials.
        var settings = CrawlSettings(seed: base + "staging/home", delay: 0, useSitemaps: false)
        settings.source = settings.seed
        settings.credentials = CredentialRecord(
            headers: ["X-Staging-Key", "Cookie", "Authorization"], origins: [String(base.dropLast())])
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try store.beginRun(
            seed: settings.seed, settingsJSON: String(decoding: try JSONEncoder().encode(settings), as: UTF8.self),
            at: Date().timeIntervalSince1970)

        let bare = try await runProcess(executable, ["crawl", "--resume", "--output", folder, "--quiet"])
        #expect(bare.status == 64, "\(bare.output)")
        #expect(bare.output.contains("started with the request headers X-Staging-Key, Cookie, Authorization"))
        #expect(bare.output.contains("pass the same options again with --resume"))

        let given = try await runProcess(
            executable, ["crawl", "--resume", "--output", folder, "--quiet"] + Self.credentialArguments())
        #expect(given.status == 0, "\(given.output)")
    }

    // MARK: - Seeds

    @Test("several seeds: each is crawled from depth 0, paths read on the first seed's site")
    func severalSeeds() async throws {
        let folder = try temporaryFolder("gating-seeds")
        let result = try await runProcess(
            try spotcheckExecutable(),
            [
                "crawl", Self.fixtures, "/movies/up.html", "https://www.example.com/about.html", "--depth", "0",
                "--no-sitemaps", "--output", folder, "--quiet",
            ])
        #expect(result.status == 0, "\(result.output)")
        let pages = try Self.json(folder + "/report.json")["pages"]?.arrayValue ?? []
        #expect(
            Set(pages.compactMap { $0["url"]?.stringValue })
                == [
                    "https://www.example.com/", "https://www.example.com/movies/up.html",
                    "https://www.example.com/about.html",
                ])
        #expect(pages.allSatisfy { $0["depth"] == 0 })
    }

    @Test("--urls-from checks exactly the listed URLs: redirects followed, links and sitemaps not")
    func listMode() async throws {
        let base = try await TestSite.baseURL()
        let folder = try temporaryFolder("gating-list")
        let list = """
            # pages to check
            \(base)torture/chain/2

            \(base)torture
            /movies/up.html
            """
        try Data(list.utf8).write(to: URL(fileURLWithPath: folder + "/urls.txt"))
        let result = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", "--urls-from", folder + "/urls.txt", "--output", folder + "/out", "--quiet"])
        #expect(result.status == 0, "\(result.output)")
        let report = try Self.json(folder + "/out/report.json")
        let pages = report["pages"]?.arrayValue ?? []
        #expect(
            pages.compactMap { $0["url"]?.stringValue }.sorted()
                == [base + "movies/up.html", base + "torture", base + "torture/chain/2"])
        let chain = pages.first { $0["url"]?.stringValue == base + "torture/chain/2" }
        #expect(chain?["finalURL"]?.stringValue == base + "torture/chain/0")
        #expect(chain?["redirects"]?.arrayValue?.count == 2)
        #expect(report["coverage"]?["skipped"] == [])
        #expect(report["crawl"]?["settings"]?["listMode"] == true)
        #expect(report["crawl"]?["settings"]?["useSitemaps"] == false)

        // A served folder with a list: only the listed pages, not the folder's home page.
        try Data("/movies/up.html\nhttps://www.example.com/about.html\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/paths.txt"))
        let listed = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", Self.fixtures, "--urls-from", folder + "/paths.txt", "--output", folder + "/served", "--quiet"])
        #expect(listed.status == 0, "\(listed.output)")
        let servedPages = try Self.json(folder + "/served/report.json")["pages"]?.arrayValue ?? []
        #expect(
            servedPages.compactMap { $0["url"]?.stringValue }.sorted()
                == ["https://www.example.com/about.html", "https://www.example.com/movies/up.html"])
    }
}
