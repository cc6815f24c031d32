import FuzzSupport
import LenientJSON

/// The lenient JSON parser on any bytes. Invariants: what strict JSON parses, the lenient parser
/// reads the same; whatever the lenient parser returns serializes as strictly valid JSON that reads
/// back as the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let strict = JSONParser.parse(bytes, lenient: false).value
    let lenient = JSONParser.parse(bytes, lenient: true).value
    if let strict {
        precondition(lenient == strict, "lenient and strict disagree on strictly valid JSON")
    }
    if let lenient {
        let text = lenient.serialized()
        guard let again = JSONParser.parse(Array(text.utf8), lenient: false).value else {
            fatalError("the serialization is not strict JSON: \(text.prefix(200))")
        }
        precondition(again == lenient, "the serialization reads back differently")
    }
    return 0
}

@main
enum FuzzJSON {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
