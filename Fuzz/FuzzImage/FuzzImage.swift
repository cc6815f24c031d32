import CLibFuzzer
import ImageSniffing

#if canImport(Glibc)
    import Glibc
#endif

/// Image header sniffing on any bytes: no crash; a size it reports is positive.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let header = ImageHeader.sniff(bytes), let width = header.width, let height = header.height {
        precondition(width > 0 && height > 0, "a sniffed size of \(width)×\(height)")
    }
    return 0
}

/// SwiftPM names the executable's entry point itself, so `main` starts libFuzzer's driver.
@main
enum FuzzImage {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzFuzzImage))
    }
}
