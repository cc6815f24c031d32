import ArgumentParser
import Foundation
import RobotsExclusion

struct Robots: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "robots",
        abstract: "robots.txt (RFC 9309) tools.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Decide whether a user agent may fetch a URL under a robots.txt file.",
            discussion: """
                Exit 0 when allowed, 1 when disallowed (the contract of Google's robotstxt-spec-test).

                \(ExitStatus.help([.success, .verdictNegative, .inputUnreadable, .usage]))
                """
        )

        @Option(help: "The robots.txt file.")
        var robotsFile: String

        @Option(help: "The crawler's product token, e.g. Applebot.")
        var userAgent: String

        @Flag(help: "Read the file as Google's parser does (see docs/robots.md), not strictly by RFC 9309.")
        var google = false

        @Argument(help: "The URL (or path) to check.")
        var url: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: robotsFile) else {
                Console.log.error("\(robotsFile): cannot be read")
                throw ExitStatus.inputUnreadable
            }
            let robots = RobotsTxt(bytes: [UInt8](data), mode: google ? .google : .rfc9309)
            let decision = robots.decide(productToken: userAgent, url: url)
            let verdict = decision.allowed ? "allowed" : "disallowed"
            if decision.exceededMatchingBudget {
                print(
                    "\(verdict): matching stopped after \(RobotsTxt.matchingBudget) octets compared "
                        + "(too many rules for this URL's length); taken as disallowed")
            } else if let rule = decision.rule {
                print("\(verdict): \(rule.allow ? "Allow" : "Disallow"): \(rule.pattern) (line \(rule.line))")
            } else {
                print("\(verdict): no rule matches")
            }
            if !decision.allowed { throw ExitStatus.verdictNegative }
        }
    }
}
