#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket bound to a free port on 127.0.0.1 (not yet listening): the caller listens on it
/// (a server of its own) or keeps it unlistened (a port whose connections are refused, which no
/// other server can take meanwhile), and closes it.
public func boundLoopbackSocket() throws -> (descriptor: Int32, port: UInt16) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard bound == 0, named == 0 else {
        let error = errno
        close(descriptor)
        throw TestFailure("bind: errno \(error)")
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
}
