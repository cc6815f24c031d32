/// Floating-point values turned into integers without trapping. `Int(_:)` of a `Double` traps on
/// NaN, an infinity or a value past `Int.max` ("Double value cannot be converted to Int"), and
/// such values come from input: `Retry-After: 1e20`, `--timeout inf`, a tampered store's JSON
/// (issue 35). Every floating value that reaches an integer goes through here
/// (`Scripts/check-numeric-conversions.sh` keeps other conversions out of Sources).
///
/// Comparisons and truncation only: no `rounded()` (libm), which an executable without
/// Foundation does not link on Linux (`LenientJSON.JSONValue.exactInt` says the same). Callers
/// that want rounding round first.

/// `value` truncated toward zero, NaN as 0, and values past either end as `Int.min`/`Int.max`.
@inlinable
public func clampedInt<F: BinaryFloatingPoint>(_ value: F) -> Int {
    guard !value.isNaN else { return 0 }
    // F(Int.max) rounds up to 2^63, which no Int holds: `>=` sends it and everything above to .max.
    if value >= F(Int.max) { return .max }
    if value <= F(Int.min) { return .min }
    return Int(value)  // numeric-conversion: checked (NaN and both ends handled above)
}

/// `value` truncated toward zero as an `Int64`, as `clampedInt` does.
@inlinable
public func clampedInt64<F: BinaryFloatingPoint>(_ value: F) -> Int64 {
    Int64(clampedInt(value))
}

/// `value` truncated toward zero as a `UInt64`: NaN and negatives as 0, values past the end as
/// `UInt64.max`.
@inlinable
public func clampedUInt64<F: BinaryFloatingPoint>(_ value: F) -> UInt64 {
    guard !value.isNaN, value > 0 else { return 0 }
    if value >= F(UInt64.max) { return .max }
    return UInt64(value)  // numeric-conversion: checked (NaN, negatives and the end handled above)
}

/// `seconds` as nanoseconds for `Task.sleep`, at least 0 and at most `Int64.max` nanoseconds
/// (292 years): a wait computed from input never traps.
@inlinable
public func clampedNanoseconds<F: BinaryFloatingPoint>(seconds: F) -> Int64 {
    guard !seconds.isNaN, seconds > 0 else { return 0 }
    return clampedInt64(seconds * 1_000_000_000)
}
