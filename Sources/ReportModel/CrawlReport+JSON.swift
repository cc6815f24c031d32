public import LenientJSON
public import Rulebook

extension CrawlReport {
    /// What report.json says before `pages`: `tool`, `kind`, `schemaVersion`, `generatedAt`,
    /// `crawl`, `summary` (docs/report.schema.json).
    public var header: JSONObject {
        var header = ReportFormat.header(kind: "crawl", generatedAt: generatedAt)
        header.append("crawl", .object(crawl.json))
        header.append("summary", .object(summary.json))
        return header
    }

    /// What report.json says after `pages`: `siteFindings`, `linking` (with local items),
    /// `universalLinks`, `coverage`.
    public var tail: JSONObject {
        var tail = JSONObject()
        tail.append("siteFindings", .array(siteFindings.map { .object(siteFindingJSON($0)) }))
        if let linking { tail.append("linking", .object(linking.json)) }
        tail.append("universalLinks", .array(universalLinks.map { .object($0.json) }))
        tail.append("coverage", .object(coverage.json))
        return tail
    }

    /// A site finding as report.json has it: with its `file` when it has one of its own.
    public func siteFindingJSON(_ finding: Finding) -> JSONObject {
        var object = finding.json
        if let file = siteFindingFiles[finding.url] { object.append("file", .string(file)) }
        return object
    }

    /// report.json without its pages (what `index.html` shows around them).
    public var jsonWithoutPages: JSONObject {
        var object = header
        object.members += tail.members
        return object
    }
}

extension LocalItemLinking {
    /// report.json's `linking`: `links`, `unmatched`, `pagesWithoutEntries`.
    public var json: JSONObject {
        var object = JSONObject()
        object.append(
            "links",
            .array(links.map { ["entry": .string($0.entry), "page": .string($0.page), "key": .string($0.key)] }))
        object.append(
            "unmatched", .array(unmatched.map { ["entry": .string($0.entry), "reason": .string($0.reason)] }))
        object.append("pagesWithoutEntries", .array(pagesWithoutEntries.map(JSONValue.string)))
        return object
    }
}

extension CrawlRunFacts {
    var json: JSONObject {
        var object = JSONObject()
        object.append("seed", .string(seed))
        if let publicOrigin { object.append("publicOrigin", .string(publicOrigin)) }
        object.append("generation", JSONValue(generation))
        object.append("startedAt", startedAt.map(JSONValue.string) ?? .null)
        object.append("finishedAt", finishedAt.map(JSONValue.string) ?? .null)
        if let settings { object.append("settings", settings) }
        return object
    }
}

extension CrawlSummary {
    var json: JSONObject {
        var object = JSONObject()
        object.append("pages", JSONValue(pages))
        object.append("byStatus", .object(Self.counts(byStatus)))
        object.append("problems", .object(Self.counts(problems)))
        object.append("notModified", JSONValue(notModified))
        object.append("candidates", JSONValue(candidates))
        object.append("notCandidatesBecause", .object(Self.counts(notCandidatesBecause)))
        object.append("applebotBlocked", JSONValue(applebotBlocked))
        object.append("bodyBytes", JSONValue(bodyBytes))
        object.append(
            "findings",
            .object([
                "error": JSONValue(findings.errors), "warning": JSONValue(findings.warnings),
                "info": JSONValue(findings.infos), "byRule": .object(Self.counts(findings.byRule)),
            ]))
        object.append("skipped", .object(Self.counts(skipped)))
        object.append("sitemapLocationsNotCrawled", JSONValue(sitemapLocationsNotCrawled))
        object.append("pagesNotInSitemaps", JSONValue(pagesNotInSitemaps))
        object.append("stalePages", JSONValue(stalePages))
        if let baseline { object.append("baseline", .object(baseline.json)) }
        return object
    }

    /// Counts by key, in key order.
    static func counts(_ counts: [String: Int]) -> JSONObject {
        JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
    }
}

extension CrawlCoverage {
    var json: JSONObject {
        var object = JSONObject()
        object.append(
            "skipped",
            .array(
                skipped.map { item in
                    var object: JSONObject = [
                        "url": .string(item.url), "reason": .string(item.reason), "detail": .string(item.detail),
                    ]
                    if let foundOn = item.foundOn { object.append("foundOn", .string(foundOn)) }
                    return .object(object)
                }))
        object.append(
            "sitemapLocationsNotCrawled",
            .array(
                sitemapLocationsNotCrawled.map {
                    ["location": .string($0.location), "sitemap": .string($0.sitemap), "line": JSONValue($0.line)]
                }))
        object.append("pagesNotInSitemaps", .array(pagesNotInSitemaps.map(JSONValue.string)))
        object.append("stalePages", .array(stalePages.map(JSONValue.string)))
        return object
    }
}

extension BaselineSummary {
    /// report.json's `summary.baseline`.
    public var json: JSONObject {
        var object = JSONObject()
        object.append("file", file.map(JSONValue.string) ?? .null)
        object.append("format", .string(format))
        object.append("known", JSONValue(known))
        object.append("suppressed", JSONValue(suppressed))
        object.append("new", JSONValue(new))
        var bySeverity = JSONObject()
        for severity in Severity.allCases.reversed() {
            bySeverity.append(severity.rawValue, JSONValue(newBySeverity[severity, default: 0]))
        }
        object.append("newBySeverity", .object(bySeverity))
        object.append("gone", JSONValue(gone))
        return object
    }
}

extension AssociationFileSummary {
    /// report.json's `universalLinks[]` member, and the text the crawl store keeps.
    public var json: JSONObject {
        var object: JSONObject = ["url": .string(url), "status": status.map { JSONValue($0) } ?? .null]
        if let error { object.append("error", .string(error)) }
        if let bytes {
            object.append("contentType", contentType.map(JSONValue.string) ?? .null)
            object.append("bytes", JSONValue(bytes))
            object.append("onlyAtRootPath", .bool(onlyAtRootPath ?? false))
            object.append(
                "notApplicable",
                .array((notApplicable ?? []).map { ["rule": .string($0.rule), "reason": .string($0.reason)] }))
        }
        if let apps { object.append("apps", .array(apps.map(JSONValue.string))) }
        object.append("configuredAppIDs", .array(configuredAppIDs.map(JSONValue.string)))
        object.append("usable", .bool(usable))
        return object
    }
}
