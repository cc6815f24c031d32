import CrawlJobs
import Crawling
import Foundation
import NumericClamping
import Reports
import Rulebook
import Verification

/// What a crawl shows at the terminal: the live progress line (on a terminal), messages on
/// stderr through `Console.log`, and on stdout the files written, every page's findings
/// (`--verbose` only), the baseline and index lines and the closing summary (`--quiet`: the
/// report path and the totals).
struct CrawlConsole: Sendable {
    let quiet: Bool
    let verbose: Bool
    let progress: TerminalProgress
    /// One buffered writer for every line, so their order holds when stdout is a pipe.
    let output = StandardOutput()
    let listing: FindingsListing

    init(verbosity: Verbosity) {
        quiet = verbosity.quiet
        verbose = verbosity.verbose
        progress = TerminalProgress(enabled: verbosity.showsProgress)
        listing = FindingsListing(verbose: verbosity.verbose)
    }

    func show(_ event: CrawlEvent) {
        switch event {
        case .crawlStarted(let folder):
            progress.phase("robots.txt")
            Console.log.info("crawling into \(folder)")
        case .sharedCrawlRegistered(let id, let store):
            // Said even with --quiet: it is what a person needs to add workers.
            Console.log.notice(
                "crawl \(id) registered in \(store); add workers with `spotcheck worker --store URL --crawl \(id)`")
        case .progress(let tally): progress.show(tally)
        case .crawlFinished: progress.phase("writing reports")
        case .warning(let message): Console.log.warning("\(message)")
        case .notice(let notice): Console.log.notice("\(Self.text(notice))")
        case .page(let page):
            guard !quiet else { return }
            output.write(listing.text(place: page.place, findings: page.findings))
            if verbose, !page.failingConditions.isEmpty {
                let reasons = page.failingConditions.map(Candidacy.explanation).joined(separator: "; ")
                output.write(PageSummary.printable("\(page.place): not a public-index candidate: \(reasons)") + "\n")
            }
        case .siteFindings(let findings, let files):
            guard !quiet else { return }
            output.write(listing.text(siteFindings: findings, files: files))
            output.flush()
        case .baselineCompared(let diff, let path):
            guard !quiet else { return }
            output.write(
                "since the baseline: \(diff.findingsFixed.count) findings fixed, \(diff.findingsNew.count) new, "
                    + "\(diff.candidatesGained.count) candidates gained, \(diff.candidatesLost.count) lost (\(path))\n")
        case .baselineWritten(let path, let findings):
            guard !quiet else { return }
            output.write("wrote \(path) (baseline of \(findings) findings)\n")
        case .indexFed(let index, let domain, let indexed, let removed):
            guard !quiet else { return }
            output.write("index \(index): \(indexed) candidates indexed (domain \(domain)), \(removed) removed\n")
        case .wrote(let path):
            guard !quiet else { return }
            output.write("wrote \(path)\n")
        }
    }

    /// A notice as one line, times in local time.
    static func text(_ notice: CrawlNotice) -> String {
        switch notice {
        case .robotsUnreachable(let origin, let reason, let retryAt):
            let wait = max(0, retryAt - Date().timeIntervalSince1970)
            let time = DateFormatter.localizedString(
                from: Date(timeIntervalSince1970: retryAt), dateStyle: .none, timeStyle: .medium)
            return "\(origin): \(reason); its pages wait and robots.txt is asked again at \(time) "
                + "(in \(clampedInt(wait.rounded())) s; --robots-retry SECONDS sets the wait, 0 does not wait)"
        case .robotsGaveUp(let origin, let reason, let attempts):
            let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
            return "\(origin): \(reason) after \(tries): its pages are not fetched "
                + "(report.json coverage lists them as robots-unreachable)"
        case .standInOrigin(let folder, let origin, let named):
            let example = named ?? "https://www.example.com"
            let hint = named.map { " (its index.html names \($0))" } ?? ""
            return "\(folder) is reported as \(origin), a stand-in: name the site it stands for with --as \(example)"
                + "\(hint), or put {\"publicOrigin\": \"\(example)\"} in \(folder)/spotcheck-site.json"
        case .imageBudgetReached(let limit):
            return "\(limit) images checked: the images pages name from now on are not fetched "
                + "(each page's imagesNotChecked counts them; --max-images raises the limit)"
        }
    }

    /// The closing lines (stdout), with the figures of report.json.
    func summarise(_ outcome: CrawlOutcome) {
        progress.finish()
        output.write(CrawlSummaryText(outcome: outcome).text(quiet: quiet, verbose: verbose))
        output.flush()
    }
}

/// The closing summary of a crawl, from the same totals report.json has: what was fetched and
/// how it answered, the findings and the rules with most of them, the candidates, what was not
/// crawled and whether the page budget cut the crawl short, and where the files are.
struct CrawlSummaryText {
    let outcome: CrawlOutcome

    func text(quiet: Bool, verbose: Bool = false) -> String {
        let totals = outcome.totals
        var lines: [String] = []
        if !quiet { lines.append(fetched) }
        lines.append("findings: \(findings)")
        if let match = outcome.baselineMatch { lines.append(BaselineOptions.line(match)) }
        if !quiet {
            lines += ruleCounts(verbose: verbose).map { "  " + $0 }
            lines.append("candidates: \(totals.candidates) of \(totals.pages) pages can reach the public index")
            lines += notCandidates.map { "  " + $0 }
            if let notCrawled { lines.append(notCrawled) }
            if outcome.ignored > 0 {
                lines.append(
                    "ignored: \(outcome.ignored) URL\(outcome.ignored == 1 ? "" : "s") on the ignore list (not fetched; "
                        + "report.json coverage lists them)")
            }
            if let budget { lines.append(budget) }
        }
        lines.append("report: \(outcome.reportPath)")
        if !quiet { lines.append("store:  \(outcome.storePath)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `crawled 41 pages in 1.20 s (34.2 pages/s): HTTP 200 ×38, 404 ×3; problems: soft-404 ×1`.
    var fetched: String {
        let summary = outcome.summary
        let rate = summary.elapsed > 0 ? Double(summary.fetched) / summary.elapsed : 0
        let statuses = outcome.totals.byStatus.sorted { $0.key < $1.key }.map {
            ($0.key == "none" ? "no answer" : "HTTP \($0.key)") + " ×\($0.value)"
        }
        // After --resume, this run's count and the whole crawl's differ (issue 31): each is named.
        let more = outcome.resumed ? "more " : ""
        let whole = outcome.resumed ? "; the crawl has \(outcome.totals.pages) pages in all" : ""
        var line =
            "crawled \(summary.fetched) \(more)pages in \(String(format: "%.2f", summary.elapsed)) s "
            + "(\(String(format: "%.1f", rate)) pages/s)\(whole): \(statuses.joined(separator: ", "))"
        let problems = outcome.totals.problems.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
        if !problems.isEmpty { line += "; problems: " + problems.joined(separator: ", ") }
        return line
    }

    /// `25 error, 54 warning, 2 info on 30 of 41 pages`.
    var findings: String {
        let totals = outcome.totals
        let counts = ["error", "warning", "info"].map { "\(totals.findingsBySeverity[$0] ?? 0) \($0)" }
        return counts.joined(separator: ", ") + " on \(totals.pagesWithFindings) of \(totals.pages) pages"
    }

    /// The findings per rule (with a baseline: the new ones), most severe first; by default the
    /// first few and how many more, every one with `--verbose`.
    func ruleCounts(verbose: Bool) -> [String] {
        if let match = outcome.baselineMatch { return RuleCounts.lines(match.newByRule, all: verbose) }
        let totals = outcome.totals
        return RuleCounts.lines(
            totals.findingsByRule.reduce(into: [:]) { ranked, rule in
                ranked[rule.key] = (totals.ruleSeverities[rule.key] ?? .info, rule.value)
            }, all: verbose)
    }

    /// Why pages are not candidates, by condition, in words, with the option that fixes it where
    /// one does: `not at canonical URL ×37: rel=canonical names another URL (IX006)`.
    var notCandidates: [String] {
        var counts = outcome.totals.notCandidates
        counts[Candidacy.Condition.notOK.rawValue, default: 0] += outcome.totals.notAnalysed
        return Candidacy.Condition.allCases.compactMap { condition -> String? in
            guard let count = counts[condition.rawValue], count > 0 else { return nil }
            var line = "not candidates, \(count) page\(count == 1 ? "" : "s"): \(Candidacy.explanation(condition))"
            if condition == .notAtCanonicalURL, let origin = outcome.publicOriginHint {
                line += "; the pages were read under a local origin: name the site's public origin with --as \(origin)"
            }
            return line
        }
    }

    /// `not crawled: 120 URLs (scope ×100, robots ×20)`, or nil.
    var notCrawled: String? {
        let skipped = outcome.skippedByReason.filter { $0.value > 0 }
        guard !skipped.isEmpty else { return nil }
        let total = skipped.values.reduce(0, +)
        let reasons = skipped.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) ×\($0.value)" }
        let listed = total > CoverageListing.limit ? "the first \(CoverageListing.limit)" : "them"
        return
            "not crawled: \(total) URL\(total == 1 ? "" : "s") (\(reasons.joined(separator: ", "))); report.json lists \(listed) under coverage"
    }

    /// Said when the page budget (or the depth) refused URLs: the crawl stopped short.
    var budget: String? {
        guard let refused = outcome.skippedByReason["budget"], refused > 0 else { return nil }
        return "the crawl stopped short: \(refused) URLs were beyond --max-pages \(outcome.maximumPages) or --depth "
            + "(raise them to crawl further)"
    }
}

/// The findings per rule, as the summaries list them: every error rule, then the others up to a
/// few lines, and how many rules were left out ("and 3 more rules"), so none is dropped silently.
enum RuleCounts {
    /// How many lines a default summary gives the rules (error rules are always all listed).
    static let count = 5

    /// `error SAB007 ×3: <the rule's title>`.
    static func line(_ rule: (rule: String, severity: Severity, count: Int)) -> String {
        let title = RuleCatalogue.rule(rule.rule)?.title ?? ""
        return "\(rule.severity.rawValue) \(rule.rule) ×\(rule.count)" + (title.isEmpty ? "" : ": \(title)")
    }

    /// The rules among `findings`, most severe first, then by count.
    static func lines(_ findings: [Finding], all: Bool = false) -> [String] {
        var counts: [String: (severity: Severity, count: Int)] = [:]
        for finding in findings {
            counts[finding.ruleID, default: (finding.severity, 0)].count += 1
        }
        return lines(counts, all: all)
    }

    /// The rules of counts by rule, most severe first, then by count; `all`: every one.
    static func lines(_ counts: [String: (severity: Severity, count: Int)], all: Bool = false) -> [String] {
        let ranked = counts.map { (rule: $0.key, severity: $0.value.severity, count: $0.value.count) }
            .sorted { ($0.severity, $0.count, $1.rule) > ($1.severity, $1.count, $0.rule) }
        let errorRules = ranked.filter { $0.severity == .error }.count
        let shown = all ? ranked.count : max(count, errorRules)
        var lines = ranked.prefix(shown).map(line)
        let left = ranked.count - lines.count
        if left > 0 {
            let findings = ranked.dropFirst(shown).reduce(0) { $0 + $1.count }
            lines.append(
                "and \(left) more rule\(left == 1 ? "" : "s") (\(findings) finding\(findings == 1 ? "" : "s"); -v lists them)"
            )
        }
        return lines
    }
}
