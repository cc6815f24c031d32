import Foundation
public import LenientJSON

/// What the overview, the app section and the page table's filters need of all the pages,
/// gathered one page at a time.
struct PageTally: Sendable {
    var pages = 0
    var candidates = 0
    var responseSeconds: [Double] = []
    var ruleIDs: Set<String> = []
    /// App Store IDs named by the pages (pages per ID), universal-link verdict kinds (pages per kind).
    var storeIDs: [String: Int] = [:]
    var verdicts: [String: Int] = [:]

    mutating func add(_ page: ReportPage) {
        pages += 1
        if page.isCandidate == true { candidates += 1 }
        if let seconds = page.totalSeconds { responseSeconds.append(seconds) }
        ruleIDs.formUnion(page.ruleIDs)
        for id in Set(page.appStoreIDs.compactMap { $0["id"]?.stringValue }) { storeIDs[id, default: 0] += 1 }
        if let verdict = page.universalLink { verdicts[HTMLReport.verdictKind(verdict), default: 0] += 1 }
    }
}

/// `index.html` written from a crawl's one report pass: each page's table row and details are
/// rendered as the page comes (into two temporary files beside the report), the overview from
/// what was tallied; `finish` writes the document around them once the site-level results are
/// known. The same document as `HTMLReport(report:).render` for the report.json of that pass.
public struct HTMLReportStream {
    public let path: String
    private var rows: FragmentFile
    private var details: FragmentFile
    private var tally = PageTally()
    private var glossary = RuleGlossary([])
    /// Renders pages; its report is only read by `finish`.
    private let renderer = HTMLReport(report: .object(JSONObject()))

    /// Starts `index.html` in `folder`.
    public init(folder: String) throws(ReportFileError) {
        path = (folder as NSString).appendingPathComponent("index.html")
        rows = try FragmentFile(path + ".rows.partial")
        details = try FragmentFile(path + ".details.partial")
    }

    /// One page, as report.json has it.
    public mutating func add(page json: JSONValue) {
        let page = ReportPage(index: tally.pages, json: json)
        tally.add(page)
        for finding in page.findings { glossary.add(finding) }
        rows.append(key: page.finalURL, renderer.rowStart(page), renderer.rowRest(page))
        details.append(
            key: page.finalURL, renderer.detailsHead(page), renderer.detailsTail(page, glossary: glossary))
    }

    /// Writes the document: `report` is report.json without its pages (header, summary, site
    /// findings, linking, universal links, coverage).
    public mutating func finish(report: JSONValue, baseline: ReportDiff? = nil) throws(ReportFileError) -> String {
        var html = HTMLReport(report: report)
        html.baseline = baseline
        let links = html.linkedEntries
        let output: PartialFile
        do {
            output = try PartialFile(path)
            try rows.close()
            try details.close()
            try html.emitDocument(tally: tally, glossary: glossary, emit: output.write) { emit in
                try rows.forEach { key, start, rest in
                    emit(start + html.linkedAttribute(links.map { $0[key] ?? [] }) + rest)
                }
            } details: { emit in
                try details.forEach { key, head, tail in
                    emit(head + html.linkedSection(links.map { $0[key] ?? [] }) + tail)
                }
            }
            try output.commit()
        } catch {
            throw ReportFileError(path: path, message: "cannot be written (\(error))")
        }
        try? FileManager.default.removeItem(atPath: rows.path)
        try? FileManager.default.removeItem(atPath: details.path)
        return path
    }
}

/// Records of (key, first part, second part), length-prefixed, appended to a temporary file and
/// read back in order once.
struct FragmentFile {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(_ path: String) throws(ReportFileError) {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forUpdatingAtPath: path)
        else { throw ReportFileError(path: path, message: "cannot be written") }
        self.handle = handle
    }

    mutating func append(key: String, _ first: String, _ second: String) {
        for part in [key, first, second] {
            buffer.append(contentsOf: "\(part.utf8.count)\n".utf8)
            buffer.append(contentsOf: part.utf8)
        }
        if buffer.count >= 1 << 20 { flush() }
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        flush()
        try handle.close()
    }

    /// Every record in order, read a megabyte at a time.
    func forEach(_ body: (String, String, String) throws -> Void) throws {
        guard let reader = FileHandle(forReadingAtPath: path) else {
            throw ReportFileError(path: path, message: "cannot be read")
        }
        defer { try? reader.close() }
        var pending: [UInt8] = []
        var start = 0
        var parts: [String] = []
        func nextPart() -> String? {
            guard let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")),
                let length = Int(String(decoding: pending[start..<newline], as: UTF8.self)),
                pending.count - (newline + 1) >= length
            else { return nil }
            let text = String(decoding: pending[(newline + 1)..<(newline + 1 + length)], as: UTF8.self)
            start = newline + 1 + length
            return text
        }
        while true {
            while let part = nextPart() {
                parts.append(part)
                if parts.count == 3 {
                    try body(parts[0], parts[1], parts[2])
                    parts.removeAll(keepingCapacity: true)
                }
            }
            pending.removeFirst(start)
            start = 0
            guard let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty else { break }
            pending.append(contentsOf: chunk)
        }
    }
}
