import NumericClamping
import Testing

/// Issue 35 §1: the conversions every floating value from input goes through never trap.
@Suite("Floating values to integers without traps")
struct ClampedIntTests {
    @Test(
        "clampedInt truncates toward zero, NaN is 0 and both ends saturate",
        arguments: [
            (0.0, 0), (1.9, 1), (-1.9, -1), (.nan, 0), (.infinity, .max), (-.infinity, .min), (1e20, .max),
            (-1e300, .min), (9_223_372_036_854_775_808.0, .max),
            (9_223_372_036_854_774_784.0, 9_223_372_036_854_774_784),
            (-9_223_372_036_854_775_808.0, .min),
        ] as [(Double, Int)])
    func int(value: Double, expected: Int) {
        #expect(clampedInt(value) == expected)
        #expect(clampedInt64(value) == Int64(expected))
    }

    @Test(
        "clampedUInt64 and clampedNanoseconds take negatives and NaN as 0",
        arguments: [
            (0.5, 500_000_000, 0), (-1, 0, 0), (.nan, 0, 0), (.infinity, .max, .max), (1e300, .max, .max),
        ] as [(Double, Int64, UInt64)])
    func nanoseconds(seconds: Double, nanoseconds: Int64, unsigned: UInt64) {
        #expect(clampedNanoseconds(seconds: seconds) == nanoseconds)
        #expect(clampedUInt64(seconds) == unsigned)
    }

    @Test func floatSaturatesToo() {
        #expect(clampedInt(Float.infinity) == .max)
        #expect(clampedInt(Float(3.5)) == 3)
    }
}
