// Times local-index searches in one process, for Scripts/bench_index.py (not shipped in the
// spotcheck binary): every line of QUERIES is a query, with optional tab-separated fields after
// it: a domain (empty for none), then `whole` for a query whose last word is not a prefix. One
// JSON line per query with its result count and seconds. INDEX is a file or a postgres:// URL.
//
//     IndexQueryTimer INDEX QUERIES [LIMIT]
import Foundation
import LenientJSON
import PostgresStorage
import SpotlightIndex

let arguments = CommandLine.arguments
guard arguments.count >= 3, let text = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: IndexQueryTimer INDEX QUERIES [LIMIT]\n".utf8))
    exit(64)
}
let limit = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20
do {
    let index = try LocalIndex.open(arguments[1], create: false)
    let clock = ContinuousClock()
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let domain = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
        let search = SearchQuery(
            parts[0], domainIdentifier: domain, limit: limit,
            prefixMatchesLastWord: parts.count < 3 || parts[2] != "whole")
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
