import FuzzSupport
import UniversalLinks

/// apple-app-site-association parsing, validation and matching on any bytes: no crash, no hang;
/// a file that validates is matched against a few URLs for its first app.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = AASAValidator.validate(bytes, configuredAppID: "ABCDE12345.com.example.app")
    guard let document = result.document else { return 0 }
    let app = document.applinks?.details.first?.appIDs.first ?? "ABCDE12345.com.example.app"
    for url in [
        "https://www.example.com/", "https://www.example.com/movies/up.html?q=1#top",
        "https://www.example.com/%C3%A9/%2F?a=%&b", "https://www.example.com/a/b/c/d/e/f/g/h/i/j/k",
    ] {
        _ = document.match(url, appID: app)
    }
    return 0
}

@main
enum FuzzAASA {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
