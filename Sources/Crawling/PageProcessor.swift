import CrawlScheduling
import CrawlStore
import Foundation
import LenientJSON
import MarkupExtraction
import PageAnalysis
import PageFetching
import RedirectFollowing
import ReportModel
import Rulebook
import URLNormalization
import Verification

/// What became of one frontier entry.
enum PageOutcome: Sendable {
    /// A page record (any status, or a classified failure), with the links it offers; links past
    /// `PageProcessor.linksExamined` are only counted.
    case page(PageRecord, links: [FrontierEntry], skipped: [SkippedURL], linksNotExamined: Int = 0)
    /// Worth another attempt (429, 5xx, timeouts, dropped connections), after `retryAfter` seconds
    /// when the server said so; `record` is what to keep if the frontier gives up (`CrawlFrontier`
    /// decides when, and whether the wait asked for is too long).
    case retry(retryAfter: Double?, record: PageRecord)
    /// Not fetched: robots.txt disallows it.
    case blocked(SkippedURL)
}

extension PageOutcome {
    /// The outcome with `payload` stored in its record (`PageRecord.payload`).
    func storing(_ payload: PagePayload) -> PageOutcome {
        func stored(_ record: PageRecord) -> PageRecord {
            var record = record
            do {
                record.payload = try payload.stored()
            } catch {
                record.errorKind = record.errorKind ?? "not-stored"
                record.errorMessage =
                    record.errorMessage ?? "the page's findings and analysis could not be stored: \(error)"
            }
            return record
        }
        switch self {
        case .page(let record, let links, let skipped, let linksNotExamined):
            return .page(stored(record), links: links, skipped: skipped, linksNotExamined: linksNotExamined)
        case .retry(let retryAfter, let record):
            return .retry(retryAfter: retryAfter, record: stored(record))
        case .blocked:
            return self
        }
    }
}

/// Fetches one URL the way the crawl wants it: robots first, redirects followed by hand (each hop
/// scope- and robots-checked, capped, loop-detected), conditional requests on a re-crawl, then
/// extraction and the attribute set on the calling task (so extraction spreads over all cores
/// while the libcurl thread keeps fetching).
struct PageProcessor: Sendable {
    let settings: CrawlSettings
    let fetcher: any PageFetcher
    let robots: RobotsBook
    let store: StoreQueue
    let scope: CrawlScope
    let mapping: OriginMapping?
    let clock: @Sendable () -> Double
    /// The rule checks run on every HTML page.
    let verifier: PageVerifier
    /// Whether an earlier run's pages may be in the store (generation > 1): conditional requests.
    let isRecrawl: Bool
    /// The images pages name, fetched once each for the image rules.
    let images: ImageBook
    /// Each host's apple-app-site-association, for the universal-link rules.
    let associations: AssociationBook
    /// `--consumers`: the page fetched again as each consumer, for IX010; nil: not.
    var consumers: ConsumerFetches? = nil
    /// `--render`: the page rendered in headless Chromium, for DL005, IX015 and IX016; nil: not.
    var rendering: PageRendering? = nil
    /// Links seen on earlier pages resolve from here (navigation repeats on every page).
    let linkCache = LinkCache()

    func process(_ entry: FrontierEntry) async -> PageOutcome {
        var payload = PagePayload()
        let outcome = await process(entry, payload: &payload)
        return outcome.storing(payload)
    }

    /// `process(_:)`, with what the store keeps beside the record's columns gathered in `payload`.
    private func process(_ entry: FrontierEntry, payload: inout PagePayload) async -> PageOutcome {
        var record = PageRecord(
            frontierID: entry.id ?? 0, requestedURL: entry.url, finalURL: entry.url, key: entry.key,
            finalKey: entry.key, depth: entry.depth, fetchedAt: clock())
        guard let start = URLParser.parse(entry.url) else {
            record.errorKind = "bad-url"
            record.errorMessage = "\(entry.url) does not parse as a URL"
            return .page(record, links: [], skipped: [])
        }
        // Redirects are followed by hand, each hop scope- and robots-checked.
        var chain = RedirectFollower(start: start, key: entry.key, maximumHops: settings.maximumRedirects)
        let key = entry.key
        let previous = isRecrawl ? try? await store.run({ try $0.previousPage(key: key) }) : nil
        var response: FetchResponse
        fetching: while true {
            let url = chain.url
            let origin = OriginMapping.origin(of: chain.current)
            let robotsPolicy = await robots.answer(forOrigin: origin).policy
            guard robotsPolicy.isAllowed(productTokens: [settings.productToken], url: url) else {
                var detail = "robots.txt disallows \(url) for \(settings.productToken)"
                if case .disallowAll(let reason) = robotsPolicy {
                    detail = "\(reason): nothing on \(origin) is fetched"
                }
                let reason: SkipReason = robotsPolicy.isUnreachable ? .robotsUnreachable : .robots
                if chain.hops.isEmpty {
                    return .blocked(
                        SkippedURL(
                            url: entry.url, key: entry.key, reason: reason.rawValue, detail: detail,
                            foundOn: entry.foundOn))
                }
                record.errorKind = "redirect-blocked"
                record.errorMessage =
                    robotsPolicy.isUnreachable
                    ? "redirects to \(url), whose robots.txt is unreachable (\(detail))"
                    : "redirects to \(url), which robots.txt disallows for \(settings.productToken)"
                payload.redirects = Self.hops(chain.hops)
                return .page(record, links: [], skipped: [])
            }
            var request = FetchRequest(
                url: url, headers: [HTTPHeader("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")])
            if chain.hops.isEmpty, let previous, previous.verdict != nil, previous.payloadVersion == PagePayload.version
            {
                if let etag = previous.etag { request.headers.append(HTTPHeader("If-None-Match", etag)) }
                if let modified = previous.lastModified {
                    request.headers.append(HTTPHeader("If-Modified-Since", modified))
                }
            }
            do {
                response = try await fetcher.fetch(request)
            } catch {
                record.finalURL = url
                record.errorKind = error.kind.rawValue
                record.errorMessage = error.message
                payload.redirects = Self.hops(chain.hops)
                if error.isTransient {
                    return .retry(retryAfter: nil, record: record)
                }
                return .page(record, links: [], skipped: [])
            }
            // A target that is (or will be) crawled on its own ends the chain there.
            var crawledOnItsOwn = false
            if let target = chain.target(status: response.status, location: response.header("Location")) {
                crawledOnItsOwn = (try? await store.run { try $0.contains(key: target.key) }) == true
            }
            let step = chain.receive(status: response.status, location: response.header("Location")) { target in
                if let (reason, detail) = scope.violation(of: target.parsed) {
                    return .outOfScope(reason: reason.rawValue, detail: detail)
                }
                return crawledOnItsOwn ? .endChain : .follow
            }
            switch step {
            case .answer:
                break fetching
            case .follow:
                payload.redirects = Self.hops(chain.hops)
                record.finalKey = chain.key
            case .endsAt(let target):
                payload.redirects = Self.hops(chain.hops)
                record.status = response.status
                record.finalURL = target.url
                record.finalKey = target.key
                return .page(record, links: [], skipped: [])
            case .stopped(let stop):
                payload.redirects = Self.hops(chain.hops)
                record.status = response.status
                record.finalURL = url
                return Self.chainStopped(stop, record: record, url: url, maximumRedirects: settings.maximumRedirects)
            }
        }
        let url = chain.url
        record.finalURL = url
        record.status = response.status
        record.contentType = response.header("Content-Type")
        payload.headers = response.headers.map { HeaderField(name: $0.name, value: $0.value) }
        payload.timings = ResponseTimings(response.timings)
        record.etag = response.header("ETag")
        record.lastModified = response.header("Last-Modified")
        record.fetchedAt = clock()
        if let parsed = URLParser.parse(url) {
            record.applebotAllowed = await robots.allowsApplebot(url, origin: OriginMapping.origin(of: parsed))
        }

        switch response.status {
        case 304:
            guard let previous, let kept = previous.payload.flatMap({ try? PagePayload(stored: $0) }) else {
                record.errorKind = "unexpected-304"
                record.errorMessage = "304 Not Modified to a request without validators"
                return .page(record, links: [], skipped: [])
            }
            record.notModified = true
            record.status = previous.status
            record.bodyBytes = previous.bodyBytes
            record.bodySHA256 = previous.bodySHA256
            record.contentType = previous.contentType
            payload.findings = kept.findings
            payload.analysis = kept.analysis
            record.markup = previous.markup
            record.verdict = previous.verdict
            record.findingCounts = previous.findingCounts
            record.payloadVersion = previous.payloadVersion
            record.etag = record.etag ?? previous.etag
            record.lastModified = record.lastModified ?? previous.lastModified
            return .page(
                record, links: links(fromStored: previous, depth: entry.depth, pageURL: url), skipped: [])
        case 429, 500, 502, 503, 504:
            record.bodyBytes = response.body.count
            return .retry(retryAfter: response.header("Retry-After").flatMap(Self.retryAfterSeconds), record: record)
        default:
            break
        }
        record.bodyBytes = response.body.count
        record.bodySHA256 = BodyDigest.sha256(response.body)
        guard response.status == 200, Self.isHTML(response) else {
            if response.status == 200 {
                record.errorKind = "not-html"
                record.errorMessage = "served as \(response.mediaType ?? "no Content-Type"); not parsed"
            }
            let findings = verifier.verifyResponse(
                url: mapping?.publicURL(record.finalURL) ?? record.finalURL, status: response.status,
                mediaType: response.mediaType)
            payload.findings = findings
            record.findingCounts = Self.counts(findings)
            return .page(record, links: [], skipped: [])
        }
        return await analyze(response, record: record, payload: &payload, depth: entry.depth)
    }

    private func analyze(
        _ response: FetchResponse, record: PageRecord, payload: inout PagePayload, depth: Int
    ) async -> PageOutcome {
        var record = record
        let publicURL = mapping?.publicURL(record.finalURL) ?? record.finalURL
        let pipeline = PagePipeline(
            extractorOptions: settings.extractorOptions,
            verifier: verifier)
        let facts = ServedFacts(
            status: response.status, mediaType: response.mediaType,
            headers: response.headers.map { (name: $0.name, value: $0.value) }, charset: response.charset,
            applebotAllowed: record.applebotAllowed)
        let checked = await pipeline.check(html: response.body, url: publicURL, facts: facts) { pending in
            await lookups(for: pending, fetchedFrom: record.finalURL)
        }
        let context = checked.context
        let candidacy = checked.candidacy
        // What the reports compare across pages, as the record's typed columns.
        let set = checked.attributes.attributeSet
        record.verdict = PageVerdict(
            uniqueIdentifier: checked.attributes.uniqueIdentifier, canonical: checked.markup.canonicals.first?.content,
            appArgument: checked.markup.smartAppBanner?.appArgument, title: set.title.map(PageVerdict.comparable),
            contentDescription: set.contentDescription.map(PageVerdict.comparable), thumbnailURL: set.thumbnailURL,
            isCandidate: candidacy.isCandidate, failingConditions: candidacy.failing.map(\.rawValue))
        let found = discover(
            checked.markup.links.map(\.href), base: checked.markup.baseURL, depth: depth, pageURL: record.finalURL)
        // The links a re-crawl (a 304) follows again: those `discover` examined, not a page's
        // 620,000 (issue 35 §2).
        var markup = checked.markup
        markup.links.removeLast(found.notExamined)
        payload.findings = checked.findings
        payload.analysis = MarkupAnalysis(
            attributes: checked.attributes, summary: MarkupSummary(checked.markup),
            failingConditions: candidacy.failing, universalLink: context.canonicalLink?.summary,
            imagesNotChecked: checked.imagesNotChecked, rendered: context.rendered?.report(served: checked.markup),
            consumers: context.consumerViews.map(\.report), linksNotStored: found.notExamined)
        record.markup = try? markup.stored()
        record.findingCounts = Self.counts(checked.findings)
        if let title = checked.markup.title?.text, Self.looksLikeNotFound(title) {
            record.errorKind = "soft-404"
            record.errorMessage = "HTTP 200 for a not-found page (title \"\(title)\")"
        }
        return .page(record, links: found.links, skipped: found.skipped, linksNotExamined: found.notExamined)
    }

    /// What the pipeline asks of the crawl: the hosts' AASA verdicts and the images, each fetched
    /// once per crawl, and with `--consumers` the page as each consumer gets it from `url`.
    private func lookups(for pending: PendingPage, fetchedFrom url: String) async -> PageLookups {
        var lookups = PageLookups(canonicalLink: await associations.verdict(for: pending.canonicalLinkURL))
        if let argument = pending.appArgumentLinkURL {
            lookups.appArgumentLink = await associations.verdict(for: argument)
        }
        let pageImages = await images.probe(pending.imageReferences)
        lookups.imageProbes = pageImages.probes
        lookups.imagesNotChecked = pageImages.notChecked
        if let consumers { lookups.consumerViews = await consumers.views(of: url) }
        if let rendering { lookups.rendered = await rendering.view(of: url) }
        return lookups
    }

    /// Findings by severity, for the record's typed columns.
    static func counts(_ findings: [Finding]) -> FindingCounts {
        var counts = FindingCounts()
        for finding in findings {
            switch finding.severity {
            case .error: counts.errors += 1
            case .warning: counts.warnings += 1
            case .info: counts.infos += 1
            }
        }
        return counts
    }

    /// Links of a page kept from an earlier crawl (a 304), so the re-crawl still reaches what it
    /// linked: those its stored markup kept, against its base URL.
    private func links(fromStored page: PageRecord, depth: Int, pageURL: String) -> [FrontierEntry] {
        guard let markup = page.markup.flatMap({ try? PageMarkup(stored: $0) }) else { return [] }
        return discover(markup.links.map(\.href), base: markup.baseURL, depth: depth, pageURL: pageURL).links
    }

    /// How many distinct links of a page become frontier candidates. Past it no link could be
    /// admitted: the frontier holds at most two entries per admitted page (the page and the end of
    /// its redirects), so among this many new keys the budget refuses all it does not admit, and
    /// only its first `SkipRecording.examplesPerSource` refusals per page are recorded. A page of
    /// 620,000 links past `--max-pages` held 660 MiB while they were resolved (issue 35 §2).
    var linksExamined: Int {
        let pages = min(settings.maximumPages, Int.max / 4)
        return 2 * pages + SkipRecording.examplesPerSource
    }

    /// Resolves hrefs (written against the public URL) to fetch URLs and sorts them into
    /// candidates for the frontier and URLs that are recorded but not followed: at most
    /// `linksExamined` candidates (the rest only counted, `notExamined`) and, of each reason for
    /// not following, the first `SkipRecording.examplesPerSource` (the last saying how many more).
    func discover(_ hrefs: [String], base: String, depth: Int, pageURL: String) -> (
        links: [FrontierEntry], skipped: [SkippedURL], notExamined: Int
    ) {
        var baseURL: ParsedURL??
        let keys = LinkCache.PageKeys(base: base)
        let followLimit = linksExamined
        let examples = SkipRecording.examplesPerSource
        var links: [FrontierEntry] = []
        var skipped: [SkippedURL] = []
        var recorded: [String: (count: Int, last: Int)] = [:]
        var unrecorded: [String: Int] = [:]
        var seen: Set<String> = []
        func record(_ url: SkippedURL) {
            let kept = recorded[url.reason, default: (0, 0)]
            guard kept.count < examples else {
                unrecorded[url.reason, default: 0] += 1
                return
            }
            recorded[url.reason] = (kept.count + 1, skipped.count)
            skipped.append(url)
        }
        var notExamined = 0
        for (index, href) in hrefs.enumerated() {
            guard links.count < followLimit else {
                notExamined = hrefs.count - index
                break
            }
            let trimmed = Self.trimmingASCIIWhitespace(href)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let cacheKey = keys.key(for: trimmed)
            let resolved: ResolvedLink
            if let cached = linkCache.value(for: cacheKey) {
                resolved = cached
            } else {
                if baseURL == nil { baseURL = .some(URLParser.parse(base)) }
                resolved = resolve(trimmed, base: baseURL ?? nil)
                linkCache.store(resolved, for: cacheKey)
            }
            switch resolved {
            case .invalid:
                if seen.insert("invalid " + trimmed).inserted {
                    record(
                        SkippedURL(
                            url: trimmed, key: nil, reason: SkipReason.invalid.rawValue,
                            detail: "does not parse as a URL", foundOn: pageURL))
                }
            case .outside(let url, let key, let reason, let detail):
                guard seen.insert(key).inserted else { continue }
                record(SkippedURL(url: url, key: key, reason: reason.rawValue, detail: detail, foundOn: pageURL))
            case .follow(let url, let key, let host):
                guard seen.insert(key).inserted else { continue }
                links.append(
                    FrontierEntry(url: url, key: key, host: host, depth: depth + 1, discovery: .link, foundOn: pageURL))
            }
        }
        for (reason, count) in unrecorded {
            guard let last = recorded[reason]?.last else { continue }
            skipped[last].detail +=
                "; \(count) more links on this page skipped as \(reason) are not recorded (the first \(examples) are)"
        }
        return (links, skipped, notExamined)
    }

    /// One href against its base: the fetch URL, its key and scope verdict.
    private func resolve(_ href: String, base: ParsedURL?) -> ResolvedLink {
        guard var target = URLParser.parse(href, base: base) else { return .invalid }
        target.fragment = nil
        if let mapping {
            let fetchForm = mapping.fetchURL(target.description)
            if let mapped = URLParser.parse(fetchForm) { target = mapped }
        }
        let url = target.description
        let key = target.deduplicationKey ?? url
        if let (reason, detail) = scope.violation(of: target) {
            return .outside(
                url: reason == .scheme ? String(url.prefix(200)) : url, key: key, reason: reason, detail: detail)
        }
        return .follow(url: url, key: key, host: Self.authority(of: target))
    }

    /// HTML's "strip leading and trailing ASCII whitespace" (the URL parser drops the rest).
    static func trimmingASCIIWhitespace(_ text: String) -> String {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last, isSpace(first) || isSpace(last) else { return text }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[start...end])
    }

    /// The page of a redirect chain that stopped on the redirect from `url`.
    private static func chainStopped(
        _ stop: RedirectFollower.Stop, record: PageRecord, url: String, maximumRedirects: Int
    ) -> PageOutcome {
        var record = record
        switch stop {
        case .unparsableLocation(let location):
            record.errorKind = "bad-redirect"
            record.errorMessage = "Location \"\(location)\" does not parse as a URL"
        case .outOfScope(let target, let reason, let detail):
            record.errorKind = "redirect-out-of-scope"
            record.errorMessage = "redirects to \(target.url): \(detail)"
            return .page(
                record, links: [],
                skipped: [SkippedURL(url: target.url, key: target.key, reason: reason, detail: detail, foundOn: url)])
        case .loop(let target):
            record.errorKind = "redirect-loop"
            record.errorMessage = "redirect loop: \(target.url) was already visited in this chain"
        case .tooManyHops:
            record.errorKind = "too-many-redirects"
            record.errorMessage = "more than \(maximumRedirects) redirects"
        }
        return .page(record, links: [], skipped: [])
    }

    /// A redirect chain as stored (`redirectsJSON`): `[{"url", "status", "location"}]`.
    static func hops(_ hops: [RedirectFollower.Hop]) -> [RedirectHop] {
        hops.map { RedirectHop(url: $0.url, status: $0.status, location: $0.location) }
    }

    /// `host[:port]`: the unit of politeness.
    static func authority(of url: ParsedURL) -> String {
        guard let port = url.port else { return url.host ?? "" }
        return "\(url.host ?? ""):\(port)"
    }

    static func isHTML(_ response: FetchResponse) -> Bool {
        switch response.mediaType {
        case "text/html", "application/xhtml+xml": return true
        case nil:
            let start = response.body.prefix(512).drop {
                $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
            }
            return start.first == UInt8(ascii: "<")
        default: return false
        }
    }

    /// `Retry-After` as seconds: delta-seconds (digits only, `RetryAfter.deltaSeconds`: `1e20`,
    /// `inf`, `0x1p70` and `1.5` are ignored and the back-off applies) or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = RetryAfter.deltaSeconds(trimmed[...]) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }

    /// Whether a 200 page's title says it is a not-found page: "not found", "page missing", "no
    /// longer available", or 404 as a number of its own ("Error 404", "404 – Oops"), not inside
    /// another ("page /l/1404", "Model 4040").
    static func looksLikeNotFound(_ title: String) -> Bool {
        let lower = title.lowercased()
        if lower.contains("not found") || lower.contains("page missing") || lower.contains("no longer available") {
            return true
        }
        return containsStandalone404(lower)
    }

    /// Whether "404" occurs with neither a letter nor a digit on either side. A scan instead of a
    /// regex literal, which Swift compiles again on every call (2.7 % of a crawl's CPU in `perf`).
    static func containsStandalone404(_ text: String) -> Bool {
        func isLetterOrNumber(_ scalar: Unicode.Scalar) -> Bool {
            if scalar.isASCII {
                return (scalar >= "0" && scalar <= "9") || (scalar >= "a" && scalar <= "z")
                    || (scalar >= "A" && scalar <= "Z")
            }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber:
                return true
            default:
                return false
            }
        }
        guard text.utf8.contains(UInt8(ascii: "4")) else { return false }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index + 3 <= scalars.count {
            if scalars[index] == "4", scalars[index + 1] == "0", scalars[index + 2] == "4",
                index == 0 || !isLetterOrNumber(scalars[index - 1]),
                index + 3 == scalars.count || !isLetterOrNumber(scalars[index + 3])
            {
                return true
            }
            index += 1
        }
        return false
    }
}

extension ResponseTimings {
    init(_ timings: FetchTimings) {
        self.init(
            dns: timings.dns, connect: timings.connect, tls: timings.tls, firstByte: timings.firstByte,
            total: timings.total)
    }
}
