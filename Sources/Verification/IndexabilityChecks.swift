import Foundation
import MarkupExtraction
import Rulebook
import URLNormalization

/// The indexability rules (apple-markup-rules.md §7.8) that one page and its response decide.
/// IX009 (fragment-only duplicates) needs the whole crawl; IX010 (a fetch as another User-Agent)
/// is `ConsumerChecks`'; IX011 (the App Store Connect support URL) needs data SpotCheck does not have.
struct IndexabilityChecks: PageRuleGroup {
    let page: PageMarkup
    let context: PageContext

    static let rules = RuleCatalogue.indexabilityRules

    /// The largest main HTML Apple's link previews read (TN3156: 1 MB, taken as 1 MiB).
    static let maximumHTMLBytes = 1 << 20

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        if context.applebotAllowed == false {
            report(
                .ix001, .page, "robots.txt",
                "robots.txt disallows \(page.url) for Applebot (Googlebot's group counts when Applebot is not named)")
        }
        for finding in Self.responseFindings(status: context.status, mediaType: context.mediaType, url: page.url) {
            report(finding.rule, .page, finding.excerpt, finding.message)
        }

        // Robots directives: meta robots / applebot, and X-Robots-Tag (unprefixed or for applebot).
        for tag in page.robots where tag.key == "robots" || tag.key == "applebot" {
            let excerpt = "<meta name=\"\(tag.key)\" content=\"\(tag.content)\">"
            let directives = Self.directives(tag.content)
            if directives.contains("noindex") || directives.contains("none") {
                report(
                    .ix002, tag.position, excerpt,
                    "meta \(tag.key) says \"\(tag.content)\": the page is kept out of the index")
            }
            if directives.contains("nosnippet") {
                report(
                    .ix003, tag.position, excerpt, "meta \(tag.key) says \"\(tag.content)\": only the title is shown")
            }
        }
        for header in context.robotsHeaders {
            guard let directives = Self.headerDirectives(header) else { continue }
            let excerpt = "X-Robots-Tag: \(header)"
            if directives.contains("noindex") || directives.contains("none") {
                report(.ix002, .page, excerpt, "X-Robots-Tag \"\(header)\" keeps the page out of the index")
            }
            if directives.contains("nosnippet") {
                report(.ix003, .page, excerpt, "X-Robots-Tag \"\(header)\": only the title is shown")
            }
        }

        for refresh in page.refreshes {
            let content = refresh.content
            if content.lowercased().contains("url=") {
                report(
                    .ix005, refresh.position, "<meta http-equiv=\"refresh\" content=\"\(content)\">",
                    "meta refresh \"\(content)\" redirects; link previews do not follow it")
            }
        }

        checkCanonicals(report)

        if let bytes = context.bodyBytes, bytes > Self.maximumHTMLBytes {
            report(
                .ix008, .page, "\(bytes) bytes",
                "the HTML is \(bytes) bytes, over the \(Self.maximumHTMLBytes) bytes (1 MiB) link previews read")
        }
    }

    private func checkCanonicals(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        let canonicals = page.canonicals
        func excerpt(_ tag: MetaTag) -> String { "<link rel=\"\(tag.key)\" href=\"\(tag.asWritten ?? tag.content)\">" }
        let targets = Set(canonicals.map(\.content) + context.headerCanonicals)
        if targets.count > 1, let second = canonicals.dropFirst().first ?? canonicals.first {
            let listed =
                (canonicals.map { "\($0.asWritten ?? $0.content) (line \($0.line))" }
                + context.headerCanonicals.map { "\($0) (Link header)" }).joined(separator: ", ")
            report(.ix007, second.position, excerpt(second), "\(targets.count) different canonical URLs: \(listed)")
        }
        for tag in page.canonicalsWithoutHref {
            report(
                .ix007, tag.position, "<link rel=\"\(tag.key)\">",
                "the canonical link has no href attribute: it names no URL, and consumers ignore it")
        }
        for tag in canonicals {
            let written = (tag.asWritten ?? tag.content).trimmingCharacters(in: .whitespacesAndNewlines)
            if written.isEmpty {
                // `href=""` resolves to the page itself, but names nothing (RFC 6596 asks for the
                // preferred URL): said as such, not as a relative URL (issue 33).
                report(.ix007, tag.position, excerpt(tag), "the canonical link's href is empty: it names no URL")
                continue
            }
            guard let parsed = URLParser.parse(tag.content), parsed.isCrawlable else {
                report(.ix007, tag.position, excerpt(tag), "canonical \"\(written)\" is not an absolute http(s) URL")
                continue
            }
            if !URLText.hasScheme(written) {
                report(
                    .ix007, tag.position, excerpt(tag),
                    "canonical \"\(written)\" is relative (resolved to \(tag.content)); write it absolute")
            }
        }
        guard let first = canonicals.first, let target = URLParser.parse(first.content),
            let targetKey = target.deduplicationKey, let pageKey = URLParser.parse(page.url)?.deduplicationKey,
            targetKey != pageKey
        else { return }
        report(
            .ix006, first.position, excerpt(first),
            "canonical \(first.content) is not this page (\(page.url)): the page is a duplicate, the canonical is indexed"
        )
    }

    /// IX004 for a response that is not 200 HTML (usable for pages that were never parsed).
    static func responseFindings(status: Int?, mediaType: String?, url: String) -> [(
        rule: RuleID, excerpt: String, message: String
    )] {
        if let status, status != 200 {
            return [(.ix004, "HTTP \(status)", "the final response for \(url) is HTTP \(status), not 200")]
        }
        if let mediaType, mediaType != "text/html", mediaType != "application/xhtml+xml" {
            return [(.ix004, "Content-Type: \(mediaType)", "the final response for \(url) is \(mediaType), not HTML")]
        }
        return []
    }

    /// `noindex, nofollow` → ["noindex", "nofollow"] (lower-cased, trimmed).
    static func directives(_ content: String) -> Set<String> {
        Set(content.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// An `X-Robots-Tag` value's directives when they apply to Applebot: unprefixed, or
    /// `applebot: …`; nil for another agent's (`googlebot: noindex`).
    static func headerDirectives(_ value: String) -> Set<String>? {
        let lowered = value.lowercased()
        if let colon = lowered.firstIndex(of: ":") {
            let agent = lowered[..<colon].trimmingCharacters(in: .whitespaces)
            let known = ["noindex", "nofollow", "none", "nosnippet", "all", "noarchive", "notranslate", "noimageindex"]
            if !agent.isEmpty, !agent.contains(","), !agent.contains(" "), !known.contains(agent),
                !agent.hasPrefix("unavailable_after"), !agent.hasPrefix("max-")
            {
                return agent == "applebot" ? directives(String(lowered[lowered.index(after: colon)...])) : nil
            }
        }
        return directives(lowered)
    }
}
