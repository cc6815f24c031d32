import FuzzSupport
import RobotsExclusion

/// robots.txt parsing and matching on any bytes. The first line of the input is the URL path to
/// match, the rest the file. Invariant: a decision does not change when an unreserved character of
/// the path is percent-encoded (RFC 9309 §2.2.2: such octets are equivalent).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let path = String(decoding: bytes[..<newline], as: UTF8.self)
    let robots = RobotsTxt(bytes: Array(bytes[min(newline + 1, bytes.count)...]))
    let url = "https://www.example.com/" + path.filter { $0.isASCII && !$0.isWhitespace && $0 != "%" }
    let decision = robots.decide(productToken: "spotcheck", url: url)
    _ = robots.decide(productTokens: ["applebot", "googlebot"], url: url)
    _ = robots.crawlDelay(for: "spotcheck")
    if let last = url.last, last.isLetter || last.isNumber, url.count > "https://www.example.com/".count {
        let encoded = String(url.dropLast()) + "%" + String(last.asciiValue ?? 0, radix: 16, uppercase: true)
        precondition(
            robots.decide(productToken: "spotcheck", url: encoded) == decision,
            "\(url) and \(encoded) are decided differently")
    }
    return 0
}

@main
enum FuzzRobots {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
