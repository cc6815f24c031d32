import FuzzSupport
import ImageSniffing

/// Image header sniffing on any bytes: no crash; a size it reports is positive.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let header = ImageHeader.sniff(bytes), let width = header.width, let height = header.height {
        precondition(width > 0 && height > 0, "a sniffed size of \(width)×\(height)")
    }
    return 0
}

@main
enum FuzzImage {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
