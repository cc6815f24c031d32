import CrawlStore
import Foundation
import SpotCheckTestSupport
import Testing

/// One bad input, as the child `spotcheck` is given it: `{tmp}` is a fresh folder (the child's
/// working directory, holding `file.txt` and a crawl store `crawl.sqlite`), `{fixtures}` the
/// fixture site. The exit code is the shared table's; the message names the input, what is wrong
/// and what to do.
struct BadInput: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var status: Int32
    var says: [String]
    var doesNotSay: [String] = []
    /// A `.spotcheck.json` written into the working directory first.
    var projectConfiguration: String?

    var testDescription: String { name }
}

/// Issue 15 §5: inputs are checked before work starts, and a run that never started leaves no
/// output folder behind.
@Suite("inputs checked before work starts", .serialized)
struct InputCheckTests {
    static let cases: [BadInput] = [
        BadInput(
            name: "validate --base-url without a scheme",
            arguments: ["validate", "{fixtures}/movies", "--base-url", "www.example.com", "--output", "{tmp}/out"],
            status: 64,
            says: ["--base-url www.example.com: not an absolute URL", "write --base-url https://www.example.com/"]),
        BadInput(
            name: "the two Microdata readings together contradict each other",
            arguments: [
                "crawl", "{fixtures}/movies", "--microdata-whatwg", "--microdata-content-anywhere", "--output",
                "{tmp}/out",
            ],
            status: 64, says: ["--microdata-whatwg and --microdata-content-anywhere contradict each other"]),
        BadInput(
            name: "aasa check of a file that does not exist is not a host lookup",
            arguments: ["aasa", "check", "/no/file.json"], status: 3, says: ["/no/file.json: no such file"],
            doesNotSay: ["https://no", "could not be fetched"]),
        BadInput(
            name: "crawl --ca-file naming no file says so, before any fetch",
            arguments: ["crawl", "{fixtures}", "--ca-file", "/no/ca.pem", "--output", "{tmp}/out", "--quiet"],
            status: 3, says: ["--ca-file /no/ca.pem: no readable file there"]),
        BadInput(
            name: "crawl of a missing folder says it is missing",
            arguments: ["crawl", "/no/such/folder", "--output", "{tmp}/out", "--quiet"], status: 6,
            says: ["/no/such/folder: no such folder", "name an existing folder"], doesNotSay: ["neither a folder"]),
        BadInput(
            name: "crawl of a host without a scheme suggests https://",
            arguments: ["crawl", "example.com", "--output", "{tmp}/out", "--quiet"], status: 6,
            says: ["example.com: ", "not a URL (it has no scheme)", "write https://example.com/"]),
        BadInput(
            name: "--delay -1 is a negative delay, not a missing value",
            arguments: ["crawl", "{fixtures}/movies", "--delay", "-1", "--output", "{tmp}/out"], status: 64,
            says: ["--delay -1.0: must be 0 seconds or more"], doesNotSay: ["Missing value"]),
        BadInput(
            name: "--output in /proc says why in words",
            arguments: ["crawl", "{fixtures}/movies", "--output", "/proc/nope", "--quiet"], status: 5,
            says: ["/proc/nope: cannot create the output folder: ", "/proc", "name a folder you can write to"],
            doesNotSay: ["NSCocoaErrorDomain", "Code="]),
        BadInput(
            name: "validate --output under a file says why in words",
            arguments: ["validate", "{fixtures}/movies", "--output", "{tmp}/file.txt/out"], status: 5,
            says: ["{tmp}/file.txt/out: cannot create the output folder: {tmp}/file.txt is a file, not a folder"],
            doesNotSay: ["NSCocoaErrorDomain"]),
        BadInput(
            name: "--index on a crawl store says it is a crawl store",
            arguments: [
                "crawl", "{fixtures}/movies", "--index", "{tmp}/crawl.sqlite", "--output", "{tmp}/out", "--quiet",
            ],
            status: 3, says: ["{tmp}/crawl.sqlite: a crawl store", "not a local index", "--index"],
            doesNotSay: ["newer SpotCheck"]),
        BadInput(
            name: "--index in a missing folder names the folder",
            arguments: ["crawl", "{fixtures}/movies", "--index", "/no/idx.sqlite", "--output", "{tmp}/out", "--quiet"],
            status: 3, says: ["/no/idx.sqlite: ", "its folder /no does not exist", "create the folder"],
            doesNotSay: ["SQLite error"]),
        BadInput(
            name: "crawl with a bad --rule",
            arguments: ["crawl", "{fixtures}/movies", "--rule", "SAB999=off", "--output", "{tmp}/out", "--quiet"],
            status: 7, says: ["--rule SAB999=off: unknown rule \"SAB999\""]),
        BadInput(
            name: "validate with a bad --rule",
            arguments: ["validate", "{fixtures}/movies", "--rule", "SAB004=loud", "--output", "{tmp}/out"],
            status: 7, says: ["--rule SAB004=loud: ", "is not off, error, warning or info"]),
        BadInput(
            name: "report with a bad --rule",
            arguments: ["report", "{tmp}/crawl.sqlite", "--rule", "SAB999=off", "--output", "{tmp}/out"], status: 7,
            says: ["--rule SAB999=off: unknown rule"]),
        BadInput(
            name: "crawl with a bad .spotcheck.json (default output folder)",
            arguments: ["crawl", "{fixtures}/movies", "--quiet"], status: 7,
            says: ["{tmp}/.spotcheck.json: rules: SAB004: \"loud\" is not off, error, warning or info"],
            projectConfiguration: #"{"rules": {"SAB004": "loud"}}"#),
        BadInput(
            name: "validate with an unknown key in .spotcheck.json",
            arguments: ["validate", "{fixtures}/movies", "--output", "{tmp}/out"], status: 7,
            says: ["{tmp}/.spotcheck.json: unknown key \"appID\" (did you mean \"appId\"?)"],
            projectConfiguration: #"{"appID": "1234567890"}"#),
        // Issue 15 §2: baselines, lists of URLs and credentials are checked before work starts too.
        BadInput(
            name: "crawl --baseline that does not exist",
            arguments: ["crawl", "{fixtures}/movies", "--baseline", "{tmp}/none.json", "--output", "{tmp}/out"],
            status: 3, says: ["--baseline {tmp}/none.json: no such file or folder"]),
        BadInput(
            name: "validate --baseline that is not JSON",
            arguments: ["validate", "{fixtures}/movies", "--baseline", "{tmp}/file.txt", "--output", "{tmp}/out"],
            status: 3, says: ["--baseline {tmp}/file.txt: not JSON, so neither a baseline file nor a report.json"]),
        BadInput(
            name: "--write-baseline into a missing folder",
            arguments: [
                "validate", "{fixtures}/movies", "--write-baseline", "/no/dir/b.json", "--output", "{tmp}/out",
            ],
            status: 5, says: ["--write-baseline /no/dir/b.json: cannot be written: its folder /no/dir does not exist"]),
        BadInput(
            name: "crawl --urls-from that does not exist",
            arguments: ["crawl", "--urls-from", "{tmp}/urls.txt", "--output", "{tmp}/out"], status: 3,
            says: ["--urls-from {tmp}/urls.txt: no such file"]),
        BadInput(
            name: "crawl --urls-from with a line that is no URL names the line",
            arguments: ["crawl", "{fixtures}/movies", "--urls-from", "{tmp}/file.txt", "--output", "{tmp}/out"],
            status: 6, says: ["{tmp}/file.txt:1: not a folder: neither an http(s) URL nor a path starting with /"]),
        BadInput(
            name: "more seeds than --max-pages",
            arguments: [
                "crawl", "{fixtures}/movies", "/a.html", "/b.html", "--max-pages", "2", "--output", "{tmp}/out",
            ],
            status: 64, says: ["3 URLs to check", "raise it with --max-pages 3"]),
        BadInput(
            name: "a seed with a password in it is refused, and the password not repeated",
            arguments: ["crawl", "https://user:s3cr3t@www.example.com/", "--output", "{tmp}/out"], status: 6,
            says: ["https://www.example.com/: user info in a seed URL is not taken", "--basic-auth USER:PASSWORD"],
            doesNotSay: ["s3cr3t"]),
        BadInput(
            name: "--header without a colon, its value not repeated",
            arguments: ["crawl", "{fixtures}/movies", "--header", "Cookie s3cr3t", "--output", "{tmp}/out"],
            status: 64, says: ["--header takes \"Name: value\""], doesNotSay: ["s3cr3t"]),
        BadInput(
            name: "--basic-auth without a password separator, its value not repeated",
            arguments: ["crawl", "{fixtures}/movies", "--basic-auth", "s3cr3t", "--output", "{tmp}/out"], status: 64,
            says: ["--basic-auth takes USER:PASSWORD"], doesNotSay: ["s3cr3t"]),
    ]

    @Test("a bad input is named with what is wrong and what to do; no output folder is made", arguments: cases)
    func badInput(_ input: BadInput) async throws {
        let tmp = try temporaryFolder("bad-input")
        try Data("not a folder\n".utf8).write(to: URL(fileURLWithPath: tmp + "/file.txt"))
        _ = try CrawlStore(path: tmp + "/crawl.sqlite")
        if let configuration = input.projectConfiguration {
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: tmp + "/.spotcheck.json"))
        }
        func filled(_ text: String) -> String {
            text.replacingOccurrences(of: "{tmp}", with: tmp).replacingOccurrences(
                of: "{fixtures}", with: TestSite.fixtureRoot)
        }
        let result = try await runProcess(try spotcheckExecutable(), input.arguments.map(filled), in: tmp)
        #expect(result.status == input.status, "\(result.output)")
        for text in input.says.map(filled) {
            #expect(result.output.contains(text), "should say \(text): \(result.output)")
        }
        for text in input.doesNotSay {
            #expect(!result.output.contains(text), "should not say \(text): \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: tmp + "/out"), "an output folder was made")
        #expect(!FileManager.default.fileExists(atPath: tmp + "/reports"), "a default output folder was made")
    }
}
