/// `Retry-After`'s delta-seconds form (RFC 9110 §10.2.3: `1*DIGIT`), without a clock; the HTTP-date
/// form needs one and is read where the response is (`PageProcessor.retryAfterSeconds`).
public enum RetryAfter {
    /// The most seconds read (31,700 years: far past any wait a crawl keeps; the frontier's
    /// longest gives the page up), so the value stays an ordinary finite number however many
    /// digits come.
    public static let longestDeltaSeconds = 1e12

    /// The seconds `text` (already trimmed) gives, or nil when it is not digits only: `1e20`,
    /// `inf`, `0x1p70`, `1.5` and `-3` are numbers to `Double(_:)` but no delta-seconds (issue 35
    /// §1: read as numbers they trapped the crawl where they became an `Int`).
    public static func deltaSeconds(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        // Digits alone: the leading ones decide whether the value is past the cap.
        let digits = text.drop { $0 == "0" }
        guard digits.utf8.count <= 13 else { return longestDeltaSeconds }
        var value = 0.0
        for byte in digits.utf8 { value = value * 10 + Double(byte - UInt8(ascii: "0")) }
        return min(value, longestDeltaSeconds)
    }
}
