// The payload coding benchmark (not shipped in spotcheck): one page report of about 13 kB as JSON
// (20 findings of 8 strings, an attribute set of 25 optionals, 40 provenance entries, headers,
// redirects, timings) encoded and decoded ITERATIONS times by CompactBinary, Foundation's JSON
// coders and binary property lists. Prints the mean µs per encode and per decode, and the sizes.
// Meant for release builds; CODEC (a part of a codec's name) times that codec only, for `perf`:
//
//     swift run --scratch-path .build-binary -c release PayloadCodingBench [ITERATIONS [CODEC]]
import CompactBinary
import Foundation

struct Finding: Codable, Equatable {
    var ruleID: String
    var severity: String
    var message: String
    var attribute: String
    var source: String
    var selector: String
    var excerpt: String
    var documentationURL: String
}

struct AttributeSet: Codable, Equatable {
    var title: String?
    var description: String?
    var canonicalURL: String?
    var thumbnailURL: String?
    var contentURL: String?
    var appArgument: String?
    var appIdentifier: String?
    var keywords: [String]?
    var language: String?
    var author: String?
    var publisher: String?
    var datePublished: String?
    var dateModified: String?
    var rating: Double?
    var ratingCount: Int?
    var price: Double?
    var currency: String?
    var duration: Int?
    var width: Int?
    var height: Int?
    var isAccessibleForFree: Bool?
    var contentRating: String?
    var genre: String?
    var openGraphType: String?
    var twitterCard: String?
}

struct ProvenanceEntry: Codable, Equatable {
    var attribute: String
    var source: String
    var selector: String
    var line: Int
    var column: Int
    var chosen: Bool
}

struct Redirect: Codable, Equatable {
    var from: String
    var to: String
    var status: Int
}

struct Timings: Codable, Equatable {
    var fetchMilliseconds: Double
    var parseMilliseconds: Double
    var analysisMilliseconds: Double
    var bytes: Int
}

struct PageReport: Codable, Equatable {
    var url: String
    var finalURL: String
    var status: Int
    var fetchedAt: Double
    var contentType: String?
    var headers: [String: String]
    var redirects: [Redirect]
    var attributes: AttributeSet
    var findings: [Finding]
    var provenance: [ProvenanceEntry]
    var timings: Timings

    /// A page as a crawl of a news site stores it; a few attributes are nil, as on real pages.
    static func sample() -> PageReport {
        let base = "https://www.example-news.com/world/2026/11/29/a-long-article-slug-about-something"
        let findings = (0..<20).map { number in
            Finding(
                ruleID: "SP\(100 + number)", severity: ["error", "warning", "notice"][number % 3],
                message: "og:image (\(number)) is not reachable: 404 Not Found.",
                attribute: ["thumbnailURL", "title", "description", "contentURL"][number % 4],
                source: ["json-ld", "open-graph", "microdata", "meta"][number % 4],
                selector: "meta[property=\"og:image\"]:nth-of-type(\(number + 1))",
                excerpt: "<meta property=\"og:image\" content=\"/i/\(number).jpg\">",
                documentationURL: "https://spotcheck.example/docs/rules/SP\(100 + number)")
        }
        let provenance = (0..<40).map { number in
            ProvenanceEntry(
                attribute: ["title", "description", "thumbnailURL", "keywords", "author"][number % 5],
                source: ["json-ld", "open-graph", "microdata", "meta", "title"][number % 5],
                selector: "script:nth-of-type(\(number % 3 + 1))",
                line: 40 + number * 7, column: 5 + number % 11, chosen: number % 5 == 0)
        }
        let attributes = AttributeSet(
            title: "A long article title about something that happened somewhere — Example News",
            description: String(repeating: "A description of the article that goes on for a while. ", count: 2),
            canonicalURL: base, thumbnailURL: "https://cdn.example-news.com/images/2026/11/29/lead-1200x630.jpg",
            contentURL: nil, appArgument: "examplenews://article/123456789", appIdentifier: "com.example.news",
            keywords: ["world", "politics", "europe", "economy", "analysis", "élections"], language: "en-GB",
            author: "Jane Reporter", publisher: "Example News Ltd", datePublished: "2026-11-29T08:15:00Z",
            dateModified: "2026-11-29T10:42:31Z", rating: 4.5, ratingCount: 1_234, price: nil, currency: nil,
            duration: nil, width: 1_200, height: 630, isAccessibleForFree: true, contentRating: nil,
            genre: "News", openGraphType: "article", twitterCard: "summary_large_image")
        let headers = [
            "content-type": "text/html; charset=utf-8",
            "cache-control": "public, max-age=300, stale-while-revalidate=60",
            "etag": "W/\"5f3a-1b2c3d4e5f\"", "last-modified": "Sat, 29 Nov 2026 10:42:31 GMT",
            "server": "nginx/1.25.3", "vary": "Accept-Encoding, Cookie", "x-cache": "HIT from edge-fra-3",
            "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
            "content-security-policy": "default-src 'self'; img-src https: data:; script-src 'self' 'unsafe-inline'",
            "date": "Sat, 29 Nov 2026 10:45:00 GMT", "age": "137", "content-encoding": "br",
        ]
        return PageReport(
            url: "http://example-news.com/world/2026/11/29/a-long-article-slug-about-something", finalURL: base,
            status: 200, fetchedAt: 1_795_942_700.125, contentType: "text/html; charset=utf-8", headers: headers,
            redirects: [
                Redirect(
                    from: "http://example-news.com/world/2026/11/29/a-long-article-slug-about-something",
                    to: "https://example-news.com/world/2026/11/29/a-long-article-slug-about-something", status: 301),
                Redirect(
                    from: "https://example-news.com/world/2026/11/29/a-long-article-slug-about-something",
                    to: base, status: 308),
            ],
            attributes: attributes, findings: findings, provenance: provenance,
            timings: Timings(
                fetchMilliseconds: 182.5, parseMilliseconds: 3.25, analysisMilliseconds: 1.75, bytes: 148_213))
    }
}

/// One way of turning the report into bytes and back.
struct Codec {
    var name: String
    var encode: (PageReport) throws -> [UInt8]
    var decode: ([UInt8]) throws -> PageReport
}

let iterations = CommandLine.arguments.count > 1 ? max(Int(CommandLine.arguments[1]) ?? 2_000, 1) : 2_000
let report = PageReport.sample()

let compactEncoder = CompactBinaryEncoder()
let compactDecoder = CompactBinaryDecoder()
let jsonEncoder = JSONEncoder()
let jsonDecoder = JSONDecoder()
let plistEncoder = PropertyListEncoder()
plistEncoder.outputFormat = .binary
let plistDecoder = PropertyListDecoder()

let codecs = [
    Codec(
        name: "CompactBinary", encode: { try compactEncoder.encode($0) },
        decode: { try compactDecoder.decode(PageReport.self, from: $0) }),
    Codec(
        name: "JSONEncoder/JSONDecoder", encode: { [UInt8](try jsonEncoder.encode($0)) },
        decode: { try jsonDecoder.decode(PageReport.self, from: Data($0)) }),
    Codec(
        name: "PropertyList (binary)", encode: { [UInt8](try plistEncoder.encode($0)) },
        decode: { try plistDecoder.decode(PageReport.self, from: Data($0)) }),
]

/// The mean time of one call of `body` over `iterations` calls, in µs (after 10% warm-up calls).
func meanMicroseconds(_ body: () throws -> Int) rethrows -> (Double, Int) {
    var sink = 0
    for _ in 0..<max(iterations / 10, 1) { sink &+= try body() }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { sink &+= try body() }
    let elapsed = start.duration(to: clock.now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return (seconds * 1e6 / Double(iterations), sink)
}

print("PayloadCodingBench: \(iterations) iterations per figure, mean per call")
print("codec                        bytes   encode µs   decode µs   both µs")
var sink = 0
let only = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : ""
for codec in codecs where only.isEmpty || codec.name.contains(only) {
    let bytes = try codec.encode(report)
    guard try codec.decode(bytes) == report else { fatalError("\(codec.name) did not round-trip the report") }
    let (encodeTime, encodeSink) = try meanMicroseconds { try codec.encode(report).count }
    let (decodeTime, decodeSink) = try meanMicroseconds { try codec.decode(bytes).status }
    sink &+= encodeSink &+ decodeSink
    let columns = [
        codec.name.padding(toLength: 24, withPad: " ", startingAt: 0),
        String(bytes.count).leftPadded(9), String(format: "%.1f", encodeTime).leftPadded(12),
        String(format: "%.1f", decodeTime).leftPadded(12),
        String(format: "%.1f", encodeTime + decodeTime).leftPadded(10),
    ]
    print(columns.joined())
}
if sink == 42 { print("") }  // Keeps the timed results alive.

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(width - count, 0)) + self }
}
