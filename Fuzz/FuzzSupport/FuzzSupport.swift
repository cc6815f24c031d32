import CLibFuzzer

#if canImport(Glibc)
    import Glibc
#endif

/// Runs libFuzzer's driver over `testOneInput` with the process's command line and exits with its
/// status. Every harness's `@main` calls it: SwiftPM names an executable's entry point itself, so
/// libFuzzer's own `main` is not the one that runs.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
