import CrawlScheduling
import FuzzSupport
import NumericClamping
import SpotlightModel

/// The numeric parsers and what their numbers feed (issue 35 §1): `Retry-After`'s delta-seconds,
/// ISO 8601 durations, the clamped conversions, and the politeness state machine given any
/// delay, Crawl-delay, response time and Retry-After (the settings a store holds are such
/// numbers). The input is read as text for the parsers and, eight bytes at a time, as doubles for
/// the rest. Invariants: nothing traps; what the parsers return is finite and not negative; a
/// clamped value is the exact one whenever it fits.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    if let seconds = RetryAfter.deltaSeconds(text[...]) {
        precondition(seconds.isFinite && seconds >= 0 && seconds <= RetryAfter.longestDeltaSeconds, "\(seconds)")
    }
    if let seconds = ISO8601.duration(text) {
        precondition(seconds.isFinite && seconds >= 0, "duration \(seconds)")
    }
    var doubles: [Double] = []
    var index = 0
    while index + 8 <= bytes.count {
        let bits = bytes[index..<(index + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        doubles.append(Double(bitPattern: bits))
        index += 8
    }
    for value in doubles + [Double(text) ?? 0] {
        let whole = clampedInt(value)
        // Exact where it fits: |value| < 2^53 has an exact integer part.
        if value.isFinite, value.magnitude < 9_007_199_254_740_992 {
            // Truncated toward zero: less than 1 away, never past the value (no libm in here).
            let integral = Double(whole)
            precondition(integral.magnitude <= value.magnitude && value.magnitude - integral.magnitude < 1, "\(value)")
            precondition(integral == 0 || (integral < 0) == (value < 0), "\(value) → \(whole)")
        }
        precondition(clampedNanoseconds(seconds: value) >= 0)
        _ = clampedUInt64(value)
        _ = clampedInt64(value)
    }
    if doubles.count >= 4 {
        var scheduler = HostScheduler(policy: PolitenessPolicy(delay: doubles[0], maximumDelay: 300))
        scheduler.setCrawlDelay(doubles[1], for: "example.com")
        scheduler.started("example.com", at: 0)
        scheduler.finished(
            "example.com", at: 1, outcome: .answered(status: 429, seconds: doubles[2], retryAfter: doubles[3]))
        _ = scheduler.delay(for: "example.com")
        _ = scheduler.next(hostsWithWork: ["example.com"], now: 2)
        _ = clampedInt(scheduler.nextStart(for: "example.com"))
    }
    return 0
}

@main
enum FuzzNumbers {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
