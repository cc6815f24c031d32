import GRDB
import LenientJSON

/// Fills the typed verdict columns of pages stored before they existed (schema v3), from the
/// analysis JSON those pages carry: the summary object the crawler used to put first in it
/// (payload version 1) or, in still older stores, the analysis's own members. Parsed with the JSON
/// parser, once, inside the migration's transaction.
enum StoredVerdictBackfill {
    static func run(_ db: Database) throws {
        let update = try db.makeStatement(
            sql: """
                UPDATE page SET unique_identifier = ?, canonical = ?, app_argument = ?, title = ?, description = ?,
                    thumbnail_url = ?, is_candidate = ?, failing_conditions = ?, error_count = ?, warning_count = ?,
                    info_count = ?
                WHERE id = ?
                """)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, markup_json, findings_json FROM page")
        while let row = try rows.next() {
            let id: Int64 = try row.decode(atIndex: 0)
            let markup: String? = try row.decode(atIndex: 1)
            let findings: String? = try row.decode(atIndex: 2)
            let verdict = markup.flatMap { JSONParser.parse($0, lenient: false).value }.map(Self.verdict(from:))
            let counts = Self.counts(findings)
            try update.execute(arguments: [
                verdict?.uniqueIdentifier, verdict?.canonical, verdict?.appArgument, verdict?.title,
                verdict?.contentDescription, verdict?.thumbnailURL, verdict?.isCandidate,
                verdict.map { $0.failingConditions.joined(separator: " ") }, counts.errors, counts.warnings,
                counts.infos, id,
            ])
        }
    }

    /// The verdict an analysis records: its `summary` member when it has one, else its own members.
    static func verdict(from analysis: JSONValue) -> PageVerdict {
        if let summary = analysis["summary"], summary.objectValue != nil {
            return PageVerdict(
                uniqueIdentifier: summary["uniqueIdentifier"]?.stringValue,
                canonical: summary["canonical"]?.stringValue, appArgument: summary["appArgument"]?.stringValue,
                title: summary["title"]?.stringValue, contentDescription: summary["description"]?.stringValue,
                thumbnailURL: summary["thumbnailURL"]?.stringValue,
                isCandidate: summary["candidate"]?["isCandidate"]?.boolValue,
                failingConditions: summary["candidate"]?["failing"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        let attributes = analysis["attributeSet"]
        return PageVerdict(
            uniqueIdentifier: analysis["uniqueIdentifier"]?.stringValue,
            canonical: analysis["canonical"]?[0]?.stringValue,
            appArgument: analysis["smartAppBanner"]?["appArgument"]?.stringValue,
            title: attributes?["title"]?.stringValue,
            contentDescription: attributes?["contentDescription"]?.stringValue,
            thumbnailURL: attributes?["thumbnailURL"]?.stringValue,
            isCandidate: analysis["candidate"]?["isCandidate"]?.boolValue,
            failingConditions: analysis["candidate"]?["failing"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    static func counts(_ findings: String?) -> FindingCounts {
        var counts = FindingCounts()
        let list = findings.flatMap { JSONParser.parse($0, lenient: false).value?.arrayValue } ?? []
        for finding in list {
            switch finding["severity"]?.stringValue {
            case "error": counts.errors += 1
            case "warning": counts.warnings += 1
            case "info": counts.infos += 1
            default: break
            }
        }
        return counts
    }
}
