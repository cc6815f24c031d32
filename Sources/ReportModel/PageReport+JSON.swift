public import LenientJSON
import MarkupExtraction
import Rulebook
import SpotlightModel

extension PageReport {
    /// The page as report.json's `pages[]` has it (docs/report.schema.json): the fetch facts, the
    /// findings, and the analysis under `markup`, with the full markup only when `includingMarkup`.
    public func json(includingMarkup: Bool) -> JSONObject {
        var object = JSONObject()
        object.append("url", .string(url))
        object.append("finalURL", .string(finalURL))
        switch location {
        case .file(let file):
            object.append("file", .string(file))
        case .linkedFrom(let file, let line, let column):
            var linked: JSONObject = ["file": .string(file), "line": JSONValue(line)]
            if let column { linked.append("column", JSONValue(column)) }
            object.append("linkedFrom", .object(linked))
        case nil:
            break
        }
        if let fetchedURL { object.append("fetchedURL", .string(fetchedURL)) }
        if let fetch { fetch.append(to: &object) }
        object.append("findings", .array(findings.map { .object($0.json) }))
        if analysis != nil || (includingMarkup && markup != nil) {
            object.append("markup", .object(markupJSON(includingMarkup: includingMarkup)))
        }
        return object
    }

    /// The analysis, then (with `includingMarkup`) the raw markup: the members `extract` adds.
    private func markupJSON(includingMarkup: Bool) -> JSONObject {
        var object = JSONObject()
        if let analysis {
            let attributes = analysis.attributes
            object.append("attributeSet", .object(attributes.attributeSet.json))
            analysis.summary.append(to: &object)
            object.append("uniqueIdentifier", .string(attributes.uniqueIdentifier))
            if let expiration = attributes.expirationDate {
                object.append("expirationDate", .string(expiration.text))
            }
            object.append("provenance", attributes.provenanceJSON)
            object.append("deepLinks", attributes.deepLinksJSON)
            object.append("appStoreIDs", attributes.appStoreIDsJSON)
            if let universalLink = analysis.universalLink { object.append("universalLink", .string(universalLink)) }
            if analysis.imagesNotChecked > 0 {
                object.append("imagesNotChecked", JSONValue(analysis.imagesNotChecked))
            }
            if let rendered = analysis.rendered { object.append("rendered", .object(rendered.json)) }
            if !analysis.consumers.isEmpty {
                object.append("consumers", .array(analysis.consumers.map { .object($0.json) }))
            }
            object.append("candidate", .object(candidateJSON(analysis)))
        }
        if includingMarkup, let markup {
            let contract = markup.contractJSON
            for member in contract.members where Self.rawMarkupKeys.contains(member.key) {
                object.append(member.key, member.value)
            }
            object.append("links", .array(markup.links.map { ["href": .string($0.href), "line": JSONValue($0.line)] }))
            if let linksNotStored = analysis?.linksNotStored, linksNotStored > 0 {
                object.append("linksNotStored", JSONValue(linksNotStored))
            }
        }
        return object
    }

    /// The contract's members that are the raw markup rather than the page's facts.
    static let rawMarkupKeys: Set<String> = [
        "jsonLD", "microdata", "rdfa", "openGraph", "twitter", "appLinks", "smartAppBanners", "jsonLDScripts",
        "sources",
    ]

    private func candidateJSON(_ analysis: MarkupAnalysis) -> JSONObject {
        var object = JSONObject()
        object.append("isCandidate", .bool(analysis.isCandidate))
        object.append("failing", .array(analysis.failingConditions.map { .string($0.rawValue) }))
        object.append(
            "reasons",
            .array(
                candidacyReasons.map { reason in
                    [
                        "condition": .string(reason.condition.rawValue),
                        "rule": .string(reason.condition.rule.rawValue),
                        "explanation": .string(reason.condition.explanation),
                        "findings": .array(reason.findings.map { JSONValue($0) }),
                    ]
                }))
        return object
    }
}

extension FetchFacts {
    fileprivate func append(to object: inout JSONObject) {
        object.append("depth", JSONValue(depth))
        object.append("status", status.map { JSONValue($0) } ?? .null)
        object.append("contentType", contentType.map { .string($0) } ?? .null)
        if let problem {
            object.append("problem", ["kind": .string(problem.kind), "message": .string(problem.message)])
        }
        object.append(
            "redirects",
            .array(
                redirects.map {
                    ["url": .string($0.url), "status": JSONValue($0.status), "location": .string($0.location)]
                }))
        object.append("timings", .object(timings.json))
        object.append("bodyBytes", JSONValue(bodyBytes))
        object.append("bodySHA256", bodySHA256.map { .string($0) } ?? .null)
        object.append("notModified", .bool(notModified))
        object.append("applebotAllowed", applebotAllowed.map { .bool($0) } ?? .null)
        object.append("headers", .array(headers.map { [.string($0.name), .string($0.value)] }))
    }
}

extension ResponseTimings {
    public var json: JSONObject {
        [
            "dns": JSONValue(dns), "connect": JSONValue(connect), "tls": JSONValue(tls),
            "firstByte": JSONValue(firstByte), "total": JSONValue(total),
        ]
    }
}

extension MarkupSummary {
    fileprivate func append(to object: inout JSONObject) {
        object.append("url", .string(url))
        object.append("smartAppBanner", smartAppBanner.map { .object($0.json) } ?? .null)
        object.append("title", title.map { .string($0) } ?? .null)
        object.append("description", description.map { .string($0) } ?? .null)
        object.append("canonical", .array(canonicals.map(JSONValue.string)))
        object.append("robots", .array(robots.map(JSONValue.string)))
        object.append("lang", lang.map { .string($0) } ?? .null)
        object.append("baseURL", .string(baseURL))
        object.append("encoding", .string(encoding))
        object.append("diagnostics", .array(diagnostics.map { .object($0.json) }))
    }
}

extension RenderingReport {
    /// report.json's `markup.rendered`.
    public var json: JSONObject {
        var object = JSONObject()
        if let failure { object.append("failure", .string(failure)) }
        if let attributeSet {
            object.append("attributeSet", .object(attributeSet.json))
            object.append("onlyAfterJavaScript", .array(onlyAfterJavaScript.map(JSONValue.string)))
        }
        object.append("timedOut", .bool(timedOut))
        object.append(
            "blockedForApplebot",
            .array(blockedForApplebot.map { ["url": .string($0.url), "resourceType": .string($0.resourceType)] }))
        return object
    }
}

extension ConsumerReport {
    /// report.json's `markup.consumers[]`: the consumer, its User-Agent, and what it got (status,
    /// final URL and the fields it reads; or why it got nothing).
    public var json: JSONObject {
        var object: JSONObject = ["consumer": .string(consumer), "userAgent": .string(userAgent)]
        switch outcome {
        case .disallowedByRobots:
            object.append("disallowedByRobots", .bool(true))
        case .failed(let reason):
            object.append("failure", .string(reason))
        case .answered(let status, let finalURL, let reads):
            object.append("status", JSONValue(status))
            object.append("finalURL", .string(finalURL))
            if let reads {
                object.append(
                    "reads", .object(JSONObject(reads.map { ($0.field, $0.value.map(JSONValue.string) ?? .null) })))
            }
        }
        return object
    }
}
