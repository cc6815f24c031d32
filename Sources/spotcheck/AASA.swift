import ArgumentParser
import Crawling
import Foundation
import URLNormalization
import UniversalLinks
import Verification

struct AASA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "apple-app-site-association (universal links) tools.",
        subcommands: [Check.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a host's (or a file's) apple-app-site-association and say which rule decides each URL.",
            discussion: """
                A host is fetched at https://HOST/.well-known/apple-app-site-association (then the \
                deprecated root path) under Apple's serving rules: no redirects, status 200, JSON \
                content type, at most 128 KB. A file is checked for its content only; exit 1 when the \
                file is unusable or breaks a rule of severity error.

                \(ExitStatus.help([.success, .verdictNegative, .inputUnreadable, .crawlFailed, .usage]))
                """
        )

        @Argument(help: "A host (www.example.com), an https origin, or an AASA file.")
        var target: String

        @Option(
            name: .customLong("app"), parsing: .singleValue,
            help: "The app's ID, TEAMID.bundle.id (repeatable; default: every app the file names).")
        var appIDs: [String] = []

        @Option(name: .customLong("url"), parsing: .singleValue, help: "A URL to match (repeatable).")
        var urls: [String] = []

        @Option(
            name: .customLong("entitlement"), parsing: .singleValue,
            help: "An associated-domains entitlement entry to check, e.g. applinks:www.example.com (repeatable).")
        var entitlements: [String] = []

        @Option(parsing: .unconditional, help: "Seconds for each request.")
        var timeout = 30.0

        func validate() throws {
            // NaN fails every comparison; `inf` would trap where seconds become milliseconds.
            if !(timeout > 0 && timeout <= Double(CrawlSettings.Limit.longestTimeout)) {
                throw ValidationError(
                    "--timeout \(timeout): must be more than 0 and at most \(CrawlSettings.Limit.longestTimeout) seconds"
                )
            }
            for app in appIDs {
                if let problem = AppIDFormat.problem(app) {
                    throw ValidationError("--app takes an app ID, TEAMID.bundle.id: \(app) \(problem)")
                }
            }
        }

        func run() async throws {
            // A path (a slash or a .json name, no scheme) is a file even when it does not exist:
            // it is named as unreadable rather than asked of a host called "tmp".
            let looksLikePath =
                !target.contains("://") && (target.contains("/") || target.lowercased().hasSuffix(".json"))
            let isFile = looksLikePath || FileManager.default.fileExists(atPath: target)
            let file = isFile ? try readFile() : try await fetchFile()
            printFindings(of: file, isFile: isFile)
            if let document = file.document {
                printVerdicts(document, servedBy: file)
            } else if !urls.isEmpty {
                print("no URL opens the app: \(file.unusableReason ?? "the file is not usable")")
            }
            if file.document == nil || file.findings.contains(where: { $0.severity == .error }) {
                throw ExitStatus.verdictNegative
            }
        }

        private func readFile() throws -> AssociationFile {
            guard let data = FileManager.default.contents(atPath: target) else {
                let why = FileManager.default.fileExists(atPath: target) ? "cannot be read" : "no such file"
                Console.log.error("\(target): \(why)")
                throw ExitStatus.inputUnreadable
            }
            print("\(target): content checked (a file: the serving rules UL001–UL005 need a host)")
            return AssociationFile.check(
                localFile: target, bytes: [UInt8](data), appIDs: appIDs, verifier: PageVerifier())
        }

        private func fetchFile() async throws -> AssociationFile {
            let origin = target.contains("://") ? target : "https://" + target
            guard let parsed = URLParser.parse(origin), parsed.isCrawlable, parsed.host != nil else {
                throw ValidationError("\(target) is neither a file nor a host")
            }
            do {
                let file = try await AssociationFile.fetch(
                    origin: OriginMapping.origin(of: parsed), timeout: timeout, appIDs: appIDs, verifier: PageVerifier()
                )
                print("\(file.url): \(file.document == nil ? "not usable" : "read")")
                return file
            } catch {
                Console.log.error("\(error)")
                throw ExitStatus.crawlFailed
            }
        }

        /// The file's findings, the entitlements' and what was not applicable.
        private func printFindings(of file: AssociationFile, isFile: Bool) {
            for finding in file.findings {
                let place = finding.excerpt.isEmpty ? "" : " at \(finding.excerpt)"
                let line = finding.line > 0 ? " (line \(finding.line))" : ""
                print(
                    PageSummary.printable(
                        "  \(finding.severity.rawValue) \(finding.ruleID)\(place)\(line): \(finding.message)"))
            }
            let host = isFile ? nil : URLParser.parse(file.url)?.host
            for entry in entitlements {
                let problems = AASAValidator.checkEntitlementDomain(entry, coveringHost: host)
                print(problems.isEmpty ? "entitlement \(entry): fine" : "entitlement \(entry):")
                for problem in problems {
                    print(PageSummary.printable("  \(problem.severity.rawValue) \(problem.ruleID): \(problem.message)"))
                }
            }
            for note in isFile ? [] : file.summary.notApplicable ?? [] {
                print("  not applicable \(note.rule): \(note.reason)")
            }
        }

        /// For each `--url` and app, the rule that decides it.
        private func printVerdicts(_ document: AASADocument, servedBy file: AssociationFile) {
            let apps = appIDs.isEmpty ? (document.applinks?.details.flatMap(\.appIDs) ?? []) : appIDs
            // A fetched file speaks for the host it was fetched from; a local file for any host.
            let host = file.url.contains("://") ? URLParser.parse(file.url)?.host : nil
            for url in urls {
                for app in apps {
                    let verdict: String
                    switch document.match(url, appID: app, servedForHost: host) {
                    case .handled(let rule): verdict = "opens the app: \(rule)"
                    case .excluded(let rule): verdict = "excluded: \(rule)"
                    case .notMatched: verdict = "not matched: no rule of this app matches"
                    case .notUniversalLink: verdict = "not a universal link (not http(s), or another host)"
                    }
                    print(PageSummary.printable("\(url) for \(app): \(verdict)"))
                }
            }
        }
    }
}
