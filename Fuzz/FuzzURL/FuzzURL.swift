import FuzzSupport
import URLNormalization

/// The WHATWG URL parser on any text, alone and against a base. Invariant: parsing is idempotent
/// on its own output (a parsed URL's serialization parses to the same serialization), and so is the
/// de-duplication key.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    let base = URLParser.parse("https://www.example.com/movies/up.html?q=1")
    for parsed in [URLParser.parse(text), URLParser.parse(text, base: base)].compactMap({ $0 }) {
        let serialized = parsed.serialized(includingFragment: true)
        guard let again = URLParser.parse(serialized) else {
            fatalError("\(serialized) (from \(text.debugDescription)) does not parse again")
        }
        precondition(
            again.serialized(includingFragment: true) == serialized,
            "not idempotent: \(serialized) → \(again.serialized(includingFragment: true))")
        if let key = parsed.deduplicationKey {
            precondition(URLParser.parse(key)?.deduplicationKey == key, "key not idempotent: \(key)")
        }
    }
    return 0
}

@main
enum FuzzURL {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
