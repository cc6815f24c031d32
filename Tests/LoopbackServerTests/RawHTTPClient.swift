import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deliberately tiny HTTP/1.1 client for the tests: one blocking socket to 127.0.0.1, one
/// request with `Connection: close`, and the raw answer read until the server closes, a receive
/// timeout, or a byte limit. Each exchange runs on a thread of its own, never on Swift
/// concurrency's pool, and every socket has `SO_RCVTIMEO`/`SO_SNDTIMEO`, so a misbehaving server
/// cannot hang a test.
///
/// Not Dispatch: on Linux, libdispatch's global queues and Swift concurrency's cooperative pool
/// share a pool of about one thread per core, so two blocked `recv` calls on a 2-core machine
/// starve the server's tasks until the receive timeout (seen here: 5-second stalls).
struct RawHTTPClient: Sendable {
    /// How reading the answer ended.
    enum Ending: Equatable, Sendable {
        /// The server closed the connection (the normal end with `Connection: close`).
        case closed
        /// `SO_RCVTIMEO` expired with the connection still open.
        case timedOut
        /// `maximumBytes` were read; the client closed the connection itself.
        case limitReached
        /// The connection failed (reset, refused …) with this errno.
        case failed(Int32)
    }

    /// The raw answer and its parsed head.
    struct Answer: Sendable {
        var status = 0
        /// Header fields in order, names as sent.
        var headers: [(name: String, value: String)] = []
        /// The body bytes as received (still chunk-encoded when the server chunked them).
        var body: [UInt8] = []
        var ending: Ending = .closed
        /// Seconds from connecting to the end of reading.
        var seconds: Double = 0

        /// The first value of header `name` (case-insensitive).
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text (chunk framing, if any, left in).
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    var port: Int
    /// `SO_RCVTIMEO` and `SO_SNDTIMEO`, in seconds.
    var timeout: Double = 5
    /// Stop reading after this many bytes (head and body).
    var maximumBytes = 8 << 20

    /// Sends one request and reads the answer on a new thread.
    func fetch(_ target: String, method: String = "GET", headers: [(String, String)] = []) async -> Answer {
        await onOwnThread { fetchBlocking(target, method: method, headers: headers) }
    }

    /// Whether a TCP connection to the port is accepted right now.
    func canConnect() async -> Bool {
        await onOwnThread {
            let socket = try? connectSocket()
            if let socket { close(socket) }
            return socket != nil
        }
    }

    private func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    private struct SocketError: Error {
        var code: Int32
    }

    private func connectSocket() throws(SocketError) -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw SocketError(code: errno) }
        let seconds = Int(timeout)
        var interval = timeval(tv_sec: seconds, tv_usec: .init((timeout - Double(seconds)) * 1_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, size)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, size)

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            close(descriptor)
            throw SocketError(code: code)
        }
        return descriptor
    }

    /// The blocking exchange; call it off the cooperative pool.
    func fetchBlocking(_ target: String, method: String, headers: [(String, String)]) -> Answer {
        let start = Self.monotonicSeconds()
        var answer = Answer()
        let descriptor: Int32
        do {
            descriptor = try connectSocket()
        } catch {
            answer.ending = .failed(error.code)
            return answer
        }
        defer { close(descriptor) }
        exchange(descriptor, target, method: method, headers: headers, into: &answer)
        answer.seconds = Self.monotonicSeconds() - start
        return answer
    }

    private func exchange(
        _ descriptor: Int32, _ target: String, method: String, headers: [(String, String)], into answer: inout Answer
    ) {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let failure = sendAll(descriptor, request + "\r\n") {
            answer.ending = failure
            return
        }
        var received: [UInt8] = []
        answer.ending = receive(descriptor, into: &received) { $0.count >= maximumBytes ? .limitReached : nil }
        parse(received, into: &answer)
    }

    /// Sends `targets` one after another on one keep-alive connection (each answer read by its
    /// `Content-Length`), calls `onIdle`, then leaves the connection idle until the server closes
    /// it. Returns the answers and how long the idle connection stayed open (`nil`: it did not
    /// close within the timeout).
    func fetchKeepAlive(_ targets: [String], onIdle: @escaping @Sendable () -> Void) async -> (
        answers: [Answer], closedAt: Double?
    ) {
        await onOwnThread {
            guard let descriptor = try? connectSocket() else {
                onIdle()
                return ([], nil)
            }
            defer { close(descriptor) }
            var answers: [Answer] = []
            var received: [UInt8] = []
            for target in targets {
                guard sendAll(descriptor, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n") == nil else {
                    break
                }
                var answer = Answer()
                answer.ending = receive(descriptor, into: &received) { bytes in
                    var probe = Answer()
                    parse(bytes, into: &probe)
                    guard let length = probe.header("Content-Length").flatMap({ Int($0) }) else { return nil }
                    return probe.body.count >= length ? .limitReached : nil
                }
                parse(received, into: &answer)
                received.removeAll()
                answers.append(answer)
            }
            onIdle()
            let ending = receive(descriptor, into: &received) { _ in nil }
            return (answers, ending == .closed ? Self.monotonicSeconds() : nil)
        }
    }

    /// Sends all of `text`; a failure ending, or `nil` once everything is sent.
    private func sendAll(_ descriptor: Int32, _ text: String) -> Ending? {
        var bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeMutableBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return .failed(errno) }
            sent += count
        }
        bytes.removeAll()
        return nil
    }

    /// Appends what arrives to `received` until the peer closes, the receive timeout expires, or
    /// `enough` returns an ending for the bytes so far.
    private func receive(_ descriptor: Int32, into received: inout [UInt8], enough: ([UInt8]) -> Ending?) -> Ending {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            switch count {
            case 0:
                return .closed
            case ..<0:
                let code = errno
                return code == EAGAIN || code == EWOULDBLOCK ? .timedOut : .failed(code)
            default:
                received += buffer[0..<count]
                if let ending = enough(received) { return ending }
            }
        }
    }

    private func parse(_ received: [UInt8], into answer: inout Answer) {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = received.firstRange(of: separator) else { return }
        let head = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        if let statusLine = lines.popFirst() {
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            answer.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        }
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            answer.headers.append((String(line[..<colon]), String(value)))
        }
        answer.body = Array(received[headEnd.upperBound...])
    }

    /// Seconds on the monotonic clock (the same for the test and this client's thread).
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
