import CrawlStore
import Foundation
import Testing

@Suite("Crawl store: scale")
struct ScaleTests {
    /// A correctness test at crawl size, not a benchmark: 20,000 entries over 4 hosts, half
    /// enqueued in one batch, half discovered by the pages (each page also links to 3 known URLs),
    /// claimed in batches per host and completed one by one; then every count and page is checked.
    /// It prints the time spent in `complete` (a debug build: a rough figure only).
    @Test("20,000 entries enqueued, claimed and completed")
    func twentyThousand() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let hosts = ["a.test", "b.test", "c.test", "d.test"]
        let total = 20_000
        func numbered(_ number: Int) -> FrontierEntry { entry("/\(number)", host: hosts[number % hosts.count]) }
        let markup = "[" + String(repeating: #"{"type":"meta","name":"description","content":"x"},"#, count: 10) + "]"

        let seeded = try store.enqueue((0..<total / 2).map(numbered))
        #expect(seeded.count == total / 2)

        var completed = 0
        var added = 0
        var next = total / 2
        var completeSeconds = 0.0
        while true {
            let work = try store.hostsWithWork()
            if work.isEmpty { break }
            for (host, _) in work {
                for item in try store.claim(host: host, limit: 64, now: 0) {
                    var links = (0..<3).map { numbered(Int((item.id! * 7 + Int64($0)) % Int64(total / 2))) }
                    if next < total {
                        links.append(numbered(next))
                        next += 1
                    }
                    let start = Date()
                    added += try store.complete(page(for: item, markup: markup), discovered: links, skipped: []).count
                    completeSeconds += Date().timeIntervalSince(start)
                    completed += 1
                }
            }
        }
        #expect(added == total / 2)
        #expect(completed == total)
        #expect(try store.counts() == FrontierCounts(done: total))
        #expect(try store.pageCount() == total)
        #expect(try store.contains(key: "c.test/19998"))

        var streamed = 0
        var lastID: Int64 = 0
        var ordered = true
        try store.forEachPage(batchSize: 1_000) { batch in
            streamed += batch.count
            for record in batch {
                ordered = ordered && record.frontierID > lastID
                lastID = record.frontierID
            }
        }
        #expect(streamed == total)
        #expect(ordered)
        print(
            "CrawlStore scale: \(total) completes (4 links each) in \(String(format: "%.2f", completeSeconds)) s, "
                + "\(Int(Double(total) / completeSeconds)) completes/s (debug build)")
    }
}
