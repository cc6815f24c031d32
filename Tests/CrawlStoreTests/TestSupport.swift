import CrawlStore
import Foundation

/// A fresh temporary folder, removed when the value is deinitialised.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-store-tests-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of the crawl database in this folder.
    var database: String { path + "/crawl.sqlite" }

    /// A store on a new database in this folder, with a run begun at time 100.
    func storeWithRun(seed: String = "https://a.test/") throws -> CrawlStore {
        let store = try CrawlStore(path: database)
        _ = try store.beginRun(seed: seed, settingsJSON: "{}", at: 100)
        return store
    }
}

/// A frontier entry whose URL, key and host derive from `host` and `path`.
func entry(
    _ path: String, host: String = "a.test", depth: Int = 1, discovery: Discovery = .link, notBefore: Double = 0
) -> FrontierEntry {
    FrontierEntry(
        url: "https://\(host)\(path)", key: "\(host)\(path)", host: host, depth: depth, discovery: discovery,
        foundOn: "https://\(host)/", notBefore: notBefore)
}

/// A plain 200 page completing `entry`, with a marker as its payload (the store keeps the bytes as given).
func page(for entry: FrontierEntry, markup: String = "[]", finalURL: String? = nil, finalKey: String? = nil)
    -> PageRecord
{
    PageRecord(
        frontierID: entry.id ?? -1, requestedURL: entry.url, finalURL: finalURL ?? entry.url, key: entry.key,
        finalKey: finalKey, depth: entry.depth, status: 200, contentType: "text/html",
        bodyBytes: 1234, bodySHA256: "abc", etag: "\"e1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT",
        payload: Array(markup.utf8), markup: Array("markup of \(entry.key)".utf8), applebotAllowed: true, fetchedAt: 200
    )
}
