// Times local-index searches in one process, for Scripts/bench_index.py (not shipped in the
// spotcheck binary): every line of QUERIES is a query, with an optional domain after a tab; one
// JSON line per query with its result count and seconds.
//
//     IndexQueryTimer INDEX QUERIES [LIMIT]
import Foundation
import LenientJSON
import SpotlightIndex

let arguments = CommandLine.arguments
guard arguments.count >= 3, let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: IndexQueryTimer INDEX QUERIES [LIMIT]\n".utf8))
    exit(64)
}
let limit = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
do {
    let index = try LocalIndex(path: arguments[1])
    let clock = ContinuousClock()
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        let search = SearchQuery(parts[0], domainIdentifier: parts.count > 1 ? parts[1] : nil, limit: limit)
        var count = 0
        let elapsed = try clock.measure { count = try index.search(search).count }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let object: JSONObject = [
            "query": .string(parts[0]), "results": JSONValue(count), "seconds": JSONValue(seconds),
        ]
        print(JSONValue.object(object).serialized())
    }
} catch {
    FileHandle.standardError.write(Data("IndexQueryTimer: \(error)\n".utf8))
    exit(1)
}
