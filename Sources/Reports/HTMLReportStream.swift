import Foundation
public import ReportModel

/// What the overview and the app section need of all the pages,
/// gathered one page at a time.
struct PageTally: Sendable {
    var pages = 0
    var candidates = 0
    var responseSeconds: [Double] = []
    /// App Store IDs named by the pages (pages per ID), universal-link verdict kinds (pages per kind).
    var storeIDs: [String: Int] = [:]
    var verdicts: [String: Int] = [:]

    mutating func add(_ page: ReportPage) {
        pages += 1
        if page.isCandidate == true { candidates += 1 }
        if let seconds = page.totalSeconds { responseSeconds.append(seconds) }
        for id in Set(page.appStoreIDs.map(\.url)) { storeIDs[id, default: 0] += 1 }
        if let verdict = page.universalLink { verdicts[HTMLReport.verdictKind(verdict), default: 0] += 1 }
    }
}

/// `index.html` written from a crawl's one report pass: each page of the page list is rendered
/// as the page comes (into a temporary file beside the report), the overview from what was
/// tallied; `finish` writes the document around the pages, most severe first, once the
/// site-level results are known. The same document as `HTMLReport(crawl:pages:).render` for the
/// pages and report of that pass.
public struct HTMLReportStream {
    public let path: String
    private var pages: FragmentFile
    /// Each page's place in the list and where its record is in `pages`.
    private var order: [(key: SeverityCounts.ListOrder, record: FragmentFile.Record)] = []
    private var tally = PageTally()
    private var glossary = RuleGlossary()
    /// Renders pages (which read nothing of the report around them).
    private let renderer = HTMLReport(
        validation: ValidationReport(generatedAt: "", inputs: [], summary: ValidationSummary()))

    /// Starts `index.html` in `folder`.
    public init(folder: String) throws(ReportFileError) {
        path = (folder as NSString).appendingPathComponent("index.html")
        pages = try FragmentFile(path + ".pages.partial")
    }

    /// The next page of the report.
    public mutating func add(page report: PageReport) {
        let page = ReportPage(index: tally.pages, report: report)
        tally.add(page)
        for finding in page.findings { glossary.add(finding, page: page.number) }
        let record = pages.append([
            page.finalURL, renderer.pageStart(page), renderer.pageMiddle(page),
            renderer.pageEnd(page, glossary: glossary),
        ])
        order.append((page.counts.listOrder(number: page.number), record))
    }

    /// Writes the document: `report` is the crawl's report around its pages (run, summary, site
    /// findings, linking, universal links, coverage).
    public mutating func finish(report: CrawlReport, baseline: ReportDiff? = nil) throws(ReportFileError) -> String {
        var html = HTMLReport(crawl: report)
        html.baseline = baseline
        let links = html.linkedEntries
        let output: PartialFile
        let listed = order.sorted { $0.key < $1.key }.map(\.record)
        do {
            output = try PartialFile(path)
            try pages.close()
            try html.emitDocument(tally: tally, glossary: glossary, emit: output.write) { emit in
                try pages.read(listed) { parts in
                    let linked = links.map { $0[parts[0]] ?? [] }
                    emit(parts[1] + html.linkedAttribute(linked) + parts[2] + html.linkedSection(linked) + parts[3])
                }
            }
            try output.commit()
        } catch {
            throw ReportFileError(path: path, message: "cannot be written (\(error))")
        }
        try? FileManager.default.removeItem(atPath: pages.path)
        return path
    }
}

/// Records (each a few strings, length-prefixed) appended to a temporary file, then read back
/// once, in any order, by where they start.
struct FragmentFile {
    /// Where a record is in the file.
    struct Record: Sendable {
        let offset: UInt64
        let length: Int
    }

    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var written: UInt64 = 0
    /// The first write that failed (a full disk), thrown by `close()`.
    private var failure: ReportFileError?

    init(_ path: String) throws(ReportFileError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forUpdatingAtPath: path)
        else { throw ReportFileError(path: path, message: "cannot be written") }
        self.handle = handle
    }

    /// Appends a record of `parts`; returns where it is.
    mutating func append(_ parts: [String]) -> Record {
        let offset = written + UInt64(buffer.count)
        let start = buffer.count
        for part in parts {
            buffer.append(contentsOf: "\(part.utf8.count)\n".utf8)
            buffer.append(contentsOf: part.utf8)
        }
        let record = Record(offset: offset, length: buffer.count - start)
        if buffer.count >= 1 << 20 { flush() }
        return record
    }

    private mutating func flush() {
        guard !buffer.isEmpty, failure == nil else { return }
        do {
            try handle.write(contentsOf: Data(buffer))
        } catch {
            failure = ReportFileError(path: path, message: "cannot be written (\(PartialFile.reason(error)))")
        }
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        flush()
        try handle.close()
        if let failure { throw failure }
    }

    /// The records, in the order given, each as its parts.
    func read(_ records: [Record], _ body: ([String]) throws -> Void) throws {
        guard let reader = FileHandle(forReadingAtPath: path) else {
            throw ReportFileError(path: path, message: "cannot be read")
        }
        defer { try? reader.close() }
        for record in records {
            try reader.seek(toOffset: record.offset)
            let bytes = Array(try reader.read(upToCount: record.length) ?? Data())
            guard bytes.count == record.length else {
                throw ReportFileError(path: path, message: "ends before the record at \(record.offset)")
            }
            var parts: [String] = []
            var start = 0
            while start < bytes.count {
                guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")),
                    let length = Int(String(decoding: bytes[start..<newline], as: UTF8.self)),
                    newline + 1 + length <= bytes.count
                else { throw ReportFileError(path: path, message: "has a broken record at \(record.offset)") }
                parts.append(String(decoding: bytes[(newline + 1)..<(newline + 1 + length)], as: UTF8.self))
                start = newline + 1 + length
            }
            try body(parts)
        }
    }
}
