import CrawlStore
import Crawling
import Foundation
import MarkupExtraction
import PageAnalysis
public import Reports
public import Rulebook
import URLNormalization
import Verification

/// A crawl already in a store: its settings, where unfinished crawls are, and its reports written
/// again without fetching (`spotcheck report`).
public enum StoredCrawl {
    /// The settings of the store's current run and when it finished (nil: unfinished); nil when
    /// the store holds no crawl.
    static func currentRun(inStoreAt path: String) throws -> (settings: CrawlSettings, finishedAt: Double?)? {
        let store = try CrawlStore(path: path)
        guard let run = try store.currentRun() else { return nil }
        let settings = try JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8))
        if let problem = settings.problem() { throw TamperedSettings(path: path, problem: problem) }
        return (settings, run.finishedAt)
    }

    /// Stored settings that no command line could have given (`CrawlSettings.problem()`): the
    /// store was changed by something else, and a crawl with them would fetch nothing or trap.
    struct TamperedSettings: Error, CustomStringConvertible {
        var path: String?
        var problem: CrawlSettings.Problem

        var description: String {
            "\(path.map { "\($0): " } ?? "")the crawl's stored settings (run.settings_json) are out of range: "
                + "\(problem); the store was changed outside SpotCheck"
        }
    }

    /// A time (seconds since 1970) as `2026-11-25 08:00:00 UTC`.
    public static func utcTime(_ seconds: Double) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The newest folder under reports/ whose store holds an unfinished crawl of `source`.
    static func latestUnfinished(source: String, root: String = "reports") -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
        for name in names.sorted(by: >) {
            let folder = (root as NSString).appendingPathComponent(name)
            let path = (folder as NSString).appendingPathComponent(CrawlJob.storeName)
            guard FileManager.default.fileExists(atPath: path), let store = try? CrawlStore(path: path),
                let run = try? store.currentRun(), run.finishedAt == nil,
                let settings = try? JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8)),
                settings.source == source
            else { continue }
            return folder
        }
        return nil
    }

    /// `reports/<host>-<UTC timestamp>`.
    static func defaultFolder(host: String, date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let safe = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" })
        return "reports/\(safe)-\(formatter.string(from: date))"
    }

    /// The public origin a served folder stands for when neither `--as` nor `spotcheck-site.json`
    /// says: `https://<folder name>.invalid` (RFC 6761: a name that never resolves), the same on
    /// every run, so two crawls of the folder compare page by page.
    static func standInOrigin(for folder: String) -> String {
        let name = URL(fileURLWithPath: folder).lastPathComponent.lowercased()
        var label = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        while label.hasPrefix("-") { label.removeFirst() }
        while label.hasSuffix("-") { label.removeLast() }
        return "https://\(label.isEmpty ? "site" : String(label.prefix(63))).invalid"
    }

    /// The origin the folder's home page (`index.html`) names in its canonical link or `og:url`,
    /// if any: what the folder most likely stands for, to suggest it.
    static func originNamedByHomePage(of folder: String) -> String? {
        let path = (folder as NSString).appendingPathComponent("index.html")
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4 << 20 else { return nil }
        let markup = MarkupExtractor().extract(html: [UInt8](data), url: "https://home.invalid/")
        let named = markup.canonicals.first?.content ?? markup.openGraph.first { $0.key == "og:url" }?.content
        guard let url = named.flatMap({ URLParser.parse($0) }), url.isCrawlable, url.host != "home.invalid" else {
            return nil
        }
        return OriginMapping.origin(of: url)
    }

    /// `spotcheck-site.json` in a served folder: `{"publicOrigin": "https://www.example.com"}`.
    static func siteConfiguration(in folder: String) -> String? {
        let path = (folder as NSString).appendingPathComponent("spotcheck-site.json")
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["publicOrigin"] as? String
    }

    /// Writes the reports of the crawl stored at `location` (a crawl folder or its crawl.sqlite)
    /// into `output` (default: the store's folder), with today's site rules. Returns the paths
    /// written; `events` hears the files as they are written.
    public static func writeReports(
        of location: String, into output: String?, siteRules configuration: RuleConfiguration,
        reportFiles: ReportFiles, includesMarkup: Bool = false
    ) throws(CrawlJobError) -> [String] {
        // A folder named by --output gets the same check as crawl's and validate's (issue 31).
        if let output {
            do {
                try OutputFolder.checkOwnership(output)
            } catch {
                throw CrawlJobError(.outputNotWritable, "\(error)")
            }
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: location, isDirectory: &isFolder)
        let path = isFolder.boolValue ? (location as NSString).appendingPathComponent(CrawlJob.storeName) : location
        guard exists, FileManager.default.fileExists(atPath: path) else {
            throw CrawlJobError(.cannotCrawl, "\(path): no crawl store here")
        }
        let store: CrawlStore
        let run: CrawlRun?
        do {
            store = try CrawlStore(path: path)
            run = try store.currentRun()
        } catch {
            throw CrawlJobError(.storeUnusable, "\(path): \(error)")
        }
        guard let run else { throw CrawlJobError(.cannotCrawl, "\(path): the store holds no crawl") }
        return try writeReports(
            of: store, run: run, into: output ?? (path as NSString).deletingLastPathComponent,
            siteRules: configuration, reportFiles: reportFiles, includesMarkup: includesMarkup)
    }

    /// Writes the reports of `run`, read from `store`, into `folder`.
    static func writeReports(
        of store: any CrawlRecordSource, run: CrawlRun, into folder: String, siteRules configuration: RuleConfiguration,
        reportFiles: ReportFiles, includesMarkup: Bool
    ) throws(CrawlJobError) -> [String] {
        let settings = try? JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8))
        let mapping = settings?.publicOrigin.flatMap { publicOrigin in
            URLParser.parse(run.seed).flatMap {
                OriginMapping(fetchOrigin: OriginMapping.origin(of: $0), publicOrigin: publicOrigin)
            }
        }
        do {
            try OutputFolder.create(folder)
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(error)")
        }
        var reports = CrawlReports(
            store: store, mapping: mapping, siteVerifier: SiteVerifier(configuration: configuration),
            localEntries: nil, reportFiles: reportFiles, suite: settings?.publicOrigin ?? run.seed)
        reports.includesMarkup = includesMarkup
        // A folder crawl's pages are named by their files while the folder is still there.
        var isFolder: ObjCBool = false
        if let source = settings?.source, FileManager.default.fileExists(atPath: source, isDirectory: &isFolder),
            isFolder.boolValue
        {
            reports.servedFolder = source
        }
        var written: [String] = []
        let report = try reports.write(into: folder, baseline: nil) { event in
            if case .wrote(let path) = event { written.append(path) }
        }
        return [report.written.path] + written
    }
}
