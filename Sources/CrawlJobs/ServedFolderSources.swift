import CrawlStore
import Foundation
import ItemLinking
import LoopbackServer
import MarkupExtraction
import ReportModel
import Reports
import Synchronization
import URLNormalization

extension PageLocation {
    var isLinkedFrom: Bool {
        if case .linkedFrom = self { true } else { false }
    }
}

/// Finds each page's `PageLocation` in a served folder. For the pages no file answers (few), the
/// link is found again: in a sitemap, from the line the store kept for each location; in a page,
/// by reading the referring file's links once.
final class ServedFolderSources: Sendable {
    private let folder: String
    private let names: SourceFiles
    private let store: any CrawlRecordSource
    /// Where a local entry is in the items file, by its name (`--items`).
    private let entrySource: (@Sendable (String) -> PageLocation?)?
    /// Referring file → its links as (de-duplication key, line, column), first occurrence first.
    private let linksByFile = Mutex<[String: [Link]]>([:])

    /// A link of a referring file: its target's de-duplication key, where it is written.
    struct Link: Sendable {
        var key: String
        var line: Int
        var column: Int?
    }

    init(
        folder: String, names: SourceFiles, store: any CrawlRecordSource,
        entrySource: (@Sendable (String) -> PageLocation?)? = nil
    ) {
        self.folder = folder
        self.names = names
        self.store = store
        self.entrySource = entrySource
    }

    func source(of page: PageRecord) -> PageLocation? {
        if let file = FolderServer.file(answering: page.finalURL, in: folder) {
            return .file(names.path(ofFile: file))
        }
        guard let referrer = (try? store.foundOn(frontierID: page.frontierID)) ?? nil else { return nil }
        // A URL a local entry names: the entry's record in the items file.
        if let name = LocalEntry.name(inLabel: referrer) { return entrySource?(name) }
        guard let file = FolderServer.file(answering: referrer, in: folder),
            let key = URLParser.parse(page.requestedURL)?.deduplicationKey
        else { return nil }
        if let line = sitemapLine(of: key, in: referrer) {
            return .linkedFrom(file: names.path(ofFile: file), line: line, column: nil)
        }
        let link = links(in: file, at: referrer).first { $0.key == key }
        return .linkedFrom(file: names.path(ofFile: file), line: link?.line ?? 0, column: link?.column)
    }

    /// The line on which the sitemap at `url` lists `key` (nil when it does not, or is no sitemap);
    /// the first listing of a key in a sitemap counts.
    private func sitemapLine(of key: String, in url: String) -> Int? {
        (try? store.sitemapLine(of: key, in: url)) ?? nil
    }

    private func links(in file: String, at url: String) -> [Link] {
        if let links = linksByFile.withLock({ $0[file] }) { return links }
        let bytes = FileManager.default.contents(atPath: file).map { [UInt8]($0) } ?? []
        let markup = MarkupExtractor().extract(html: bytes, url: url)
        let base = URLParser.parse(url)
        let links = markup.links.compactMap { link -> Link? in
            guard let key = URLParser.parse(link.href, base: base)?.deduplicationKey else { return nil }
            return Link(key: key, line: link.line, column: link.column)
        }
        linksByFile.withLock { $0[file] = links }
        return links
    }
}
