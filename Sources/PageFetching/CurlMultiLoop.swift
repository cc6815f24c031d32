// The only file that touches libcurl: the multi handle, the easy handles, their callbacks, and the
// conversion of what libcurl reports into `FetchResponse` / `FetchError` values.

import CCurl
import Foundation
import Synchronization

/// A request handed to the loop thread, with the callback that receives its result.
struct TransferSubmission: Sendable {
    var id: UInt64
    var request: FetchRequest
    var completion: @Sendable (Result<FetchResponse, FetchError>) -> Void
}

/// The libcurl multi handle.
///
/// `@unchecked Sendable` invariant: the pointer is used only on the loop thread (created before it
/// starts, cleaned up by it when it ends), except for `curl_multi_wakeup`, which libcurl documents
/// as callable from any thread.
struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// Runs libcurl's multi interface on one dedicated thread. Other threads talk to it only through
/// `inbox` (a mutex) and `curl_multi_wakeup`.
final class CurlMultiLoop: Sendable {
    private struct Inbox {
        var submissions: [TransferSubmission] = []
        var cancellations: [UInt64] = []
        var stopping = false
        var nextID: UInt64 = 1
    }

    private static let globalInit: CURLcode = spotcheck_curl_global_init()

    static var libraryVersion: String { String(cString: curl_version()) }

    private let configuration: FetcherConfiguration
    private let multi: MultiHandle
    private let inbox = Mutex(Inbox())

    init(configuration: FetcherConfiguration) throws(FetchError) {
        guard Self.globalInit == CURLE_OK else {
            throw FetchError(
                kind: .other, url: "", curlCode: Int(Self.globalInit.rawValue),
                message: "curl_global_init failed: \(String(cString: curl_easy_strerror(Self.globalInit)))"
            )
        }
        guard let pointer = curl_multi_init() else {
            throw FetchError(kind: .other, url: "", message: "curl_multi_init failed")
        }
        spotcheck_curl_multi_setopt_long(
            pointer, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maximumConnectionsPerHost)
        spotcheck_curl_multi_setopt_long(pointer, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maximumConnections)
        spotcheck_curl_multi_setopt_long(pointer, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        self.configuration = configuration
        self.multi = MultiHandle(pointer: pointer)
        let thread = Thread { [self] in self.run() }
        thread.name = "spotcheck-curl"
        thread.start()
    }

    func makeTransferID() -> UInt64 {
        inbox.withLock { inbox in
            defer { inbox.nextID += 1 }
            return inbox.nextID
        }
    }

    func submit(
        id: UInt64, request: FetchRequest, completion: @escaping @Sendable (Result<FetchResponse, FetchError>) -> Void
    ) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.submissions.append(TransferSubmission(id: id, request: request, completion: completion))
            return true
        }
        if accepted {
            curl_multi_wakeup(multi.pointer)
        } else {
            completion(.failure(FetchError(kind: .cancelled, url: request.url, message: "the fetcher was shut down")))
        }
    }

    func cancel(id: UInt64) {
        inbox.withLock { $0.cancellations.append(id) }
        curl_multi_wakeup(multi.pointer)
    }

    func shutdown() {
        let wasStopping = inbox.withLock { inbox in
            defer { inbox.stopping = true }
            return inbox.stopping
        }
        if !wasStopping { curl_multi_wakeup(multi.pointer) }
    }

    // MARK: - The loop thread

    private func run() {
        let transfers = ActiveTransfers(multi: multi.pointer, configuration: configuration)
        while true {
            let (submissions, cancellations, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.submissions.removeAll(keepingCapacity: true)
                    inbox.cancellations.removeAll(keepingCapacity: true)
                }
                return (inbox.submissions, inbox.cancellations, inbox.stopping)
            }
            transfers.cancel(ids: cancellations)
            for submission in submissions { transfers.start(submission) }
            if stopping {
                transfers.cancelAll()
                break
            }
            var running: Int32 = 0
            curl_multi_perform(multi.pointer, &running)
            transfers.collectFinished()
            curl_multi_poll(multi.pointer, nil, 0, 1000, nil)
        }
        transfers.releaseHandles()
        curl_multi_cleanup(multi.pointer)
        // Submissions that raced with the shutdown.
        let late = inbox.withLock { inbox in
            defer { inbox.submissions.removeAll() }
            return inbox.submissions
        }
        for submission in late {
            submission.completion(
                .failure(
                    FetchError(kind: .cancelled, url: submission.request.url, message: "the fetcher was shut down"))
            )
        }
    }
}

/// One transfer's buffers, owned by the loop thread (libcurl's callbacks run on it too).
private final class Transfer {
    let submission: TransferSubmission
    let limits: FetchLimits
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    var requestHeaders: UnsafeMutablePointer<curl_slist>?
    var body: [UInt8] = []
    var headers: [HTTPHeader] = []
    var headerBytes = 0
    /// Set when a callback stopped the transfer because a cap was exceeded.
    var exceeded: FetchError.Kind?
    /// Set when the body callback stopped the transfer at a truncating cap (not an error).
    var truncated = false
    /// The body cap of this transfer: the request's own, else the fetcher's.
    let bodyCap: BodyCap

    init(submission: TransferSubmission, limits: FetchLimits) {
        self.submission = submission
        self.limits = limits
        self.bodyCap = submission.request.bodyCap ?? BodyCap(bytes: limits.maximumBodyBytes, overflow: .fail)
        errorBuffer.initialize(to: 0)
    }

    deinit {
        errorBuffer.deallocate()
        curl_slist_free_all(requestHeaders)
    }

    var url: String { submission.request.url }

    func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        guard body.count + count <= bodyCap.bytes else {
            switch bodyCap.overflow {
            case .fail:
                exceeded = .tooLarge
            case .truncate:
                // Keep what fits; returning short makes libcurl stop (CURLE_WRITE_ERROR), which
                // `finish` turns into a response.
                let room = bodyCap.bytes - body.count
                body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: room))
                truncated = true
            }
            return 0
        }
        body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    /// One header line, as libcurl delivers them (with its CRLF). A status line starts a new
    /// response (after `100 Continue` or an informational answer), so the headers start over.
    func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let bytes = UnsafeRawBufferPointer(start: data, count: count)
        if bytes.starts(with: "HTTP/".utf8) {
            headers.removeAll()
            headerBytes = 0
        }
        headerBytes += count
        guard headerBytes <= limits.maximumHeaderBytes else {
            exceeded = .headersTooLarge
            return 0
        }
        var line = Substring(decoding: bytes, as: UTF8.self)
        while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line.removeLast() }
        guard !line.isEmpty, !line.hasPrefix("HTTP/") else { return count }
        if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
            headers[headers.count - 1].value += " " + line.trimming(" \t")
        } else if let colon = line.firstIndex(of: ":") {
            headers.append(HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimming(" \t")))
        }
        return count
    }
}

private let bodyCallback: spotcheck_curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().receiveBody(data, size * count)
}

private let headerCallback: spotcheck_curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().receiveHeader(data, size * count)
}

/// The transfers in flight and a pool of idle easy handles. Lives on the loop thread only.
private final class ActiveTransfers {
    private let multi: UnsafeMutableRawPointer
    private let configuration: FetcherConfiguration
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// Cancellations that arrived before their submission.
    private var earlyCancellations: Set<UInt64> = []

    init(multi: UnsafeMutableRawPointer, configuration: FetcherConfiguration) {
        self.multi = multi
        self.configuration = configuration
    }

    func start(_ submission: TransferSubmission) {
        if earlyCancellations.remove(submission.id) != nil {
            submission.completion(
                .failure(FetchError(kind: .cancelled, url: submission.request.url, message: "cancelled")))
            return
        }
        guard let easy = idleHandles.popLast() ?? curl_easy_init() else {
            submission.completion(
                .failure(FetchError(kind: .other, url: submission.request.url, message: "curl_easy_init failed"))
            )
            return
        }
        let transfer = Transfer(submission: submission, limits: configuration.limits)
        if let problem = configure(easy, for: transfer) {
            curl_easy_reset(easy)
            idleHandles.append(easy)
            submission.completion(.failure(problem))
            return
        }
        active[easy] = transfer
        let added = curl_multi_add_handle(multi, easy)
        if added != CURLM_OK {
            active[easy] = nil
            curl_easy_reset(easy)
            idleHandles.append(easy)
            submission.completion(
                .failure(
                    FetchError(
                        kind: .other, url: transfer.url, curlCode: Int(added.rawValue),
                        message: "curl_multi_add_handle: \(String(cString: curl_multi_strerror(added)))"
                    )
                )
            )
        }
    }

    private func configure(_ easy: UnsafeMutableRawPointer, for transfer: Transfer) -> FetchError? {
        let request = transfer.submission.request
        let limits = transfer.limits
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var codes: [CURLcode] = []
        func set(_ option: CURLoption, _ value: Int) {
            codes.append(spotcheck_curl_easy_setopt_long(easy, option, value))
        }
        func set(_ option: CURLoption, _ value: String) {
            codes.append(value.withCString { spotcheck_curl_easy_setopt_pointer(easy, option, $0) })
        }
        set(CURLOPT_URL, request.url)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_USERAGENT, configuration.userAgent)
        // "" asks for every encoding this libcurl can decode (gzip, deflate, br, zstd).
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_PIPEWAIT, 1)
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout * 1000))
        set(CURLOPT_TIMEOUT_MS, Int(limits.timeout * 1000))
        if transfer.bodyCap.overflow == .fail {
            codes.append(
                spotcheck_curl_easy_setopt_offset(
                    easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.bodyCap.bytes)))
        }
        codes.append(spotcheck_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer))
        codes.append(spotcheck_curl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, bodyCallback))
        codes.append(spotcheck_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        codes.append(spotcheck_curl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, headerCallback))
        codes.append(spotcheck_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        if !request.headers.isEmpty {
            for header in request.headers {
                transfer.requestHeaders = curl_slist_append(transfer.requestHeaders, "\(header.name): \(header.value)")
            }
            codes.append(spotcheck_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, transfer.requestHeaders))
        }
        guard let failed = codes.first(where: { $0 != CURLE_OK }) else { return nil }
        return Self.error(for: failed, transfer: transfer, easy: easy)
    }

    func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            finish(easy, code: code)
        }
    }

    private func finish(_ easy: UnsafeMutableRawPointer, code: CURLcode) {
        guard let transfer = active.removeValue(forKey: easy) else { return }
        curl_multi_remove_handle(multi, easy)
        let result: Result<FetchResponse, FetchError> =
            code == CURLE_OK || (code == CURLE_WRITE_ERROR && transfer.truncated)
            ? .success(Self.response(from: easy, transfer: transfer))
            : .failure(Self.error(for: code, transfer: transfer, easy: easy))
        recycle(easy)
        transfer.submission.completion(result)
    }

    func cancel(ids: [UInt64]) {
        for id in ids {
            guard let (easy, transfer) = active.first(where: { $0.value.submission.id == id }) else {
                earlyCancellations.insert(id)
                continue
            }
            active[easy] = nil
            curl_multi_remove_handle(multi, easy)
            recycle(easy)
            transfer.submission.completion(
                .failure(FetchError(kind: .cancelled, url: transfer.url, message: "cancelled")))
        }
    }

    func cancelAll() {
        cancel(ids: active.values.map(\.submission.id))
    }

    private func recycle(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        if idleHandles.count < 64 {
            idleHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    func releaseHandles() {
        for easy in idleHandles { curl_easy_cleanup(easy) }
        idleHandles.removeAll()
    }

    // MARK: - What libcurl reports, as values

    private static func response(from easy: UnsafeMutableRawPointer, transfer: Transfer) -> FetchResponse {
        FetchResponse(
            url: transfer.url, status: long(easy, CURLINFO_RESPONSE_CODE),
            httpVersion: httpVersion(long(easy, CURLINFO_HTTP_VERSION)), headers: transfer.headers,
            body: transfer.body, wireBytes: Int(offset(easy, CURLINFO_SIZE_DOWNLOAD_T)), timings: timings(easy),
            remoteAddress: string(easy, CURLINFO_PRIMARY_IP), truncated: transfer.truncated
        )
    }

    private static func error(for code: CURLcode, transfer: Transfer, easy: UnsafeMutableRawPointer) -> FetchError {
        var message = String(cString: transfer.errorBuffer)
        if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
        let kind: FetchError.Kind
        switch code {
        case CURLE_WRITE_ERROR where transfer.exceeded != nil:
            kind = transfer.exceeded ?? .other
            message =
                kind == .tooLarge
                ? "body larger than \(transfer.bodyCap.bytes) bytes (after decoding)"
                : "response headers larger than \(transfer.limits.maximumHeaderBytes) bytes"
        case CURLE_FILESIZE_EXCEEDED:
            kind = .tooLarge
            message = "Content-Length larger than \(transfer.bodyCap.bytes) bytes"
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: kind = .dns
        case CURLE_COULDNT_CONNECT: kind = .connectionRefused
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl words the connect phase "Connection timed out" / "Resolving timed out"; the
            // transfer phase "Operation timed out". A reused connection reports no connect time,
            // so the wording (and whether headers arrived) decides, not the timings.
            let inConnectPhase = message.hasPrefix("Connection timed out") || message.hasPrefix("Resolving timed out")
            kind = inConnectPhase && transfer.headerBytes == 0 ? .connectTimeout : .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            kind = .tls
        case CURLE_BAD_CONTENT_ENCODING: kind = .badEncoding
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR: kind = .connectionDropped
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM: kind = .protocolError
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: kind = .badURL
        case CURLE_ABORTED_BY_CALLBACK: kind = .cancelled
        default: kind = .other
        }
        return FetchError(kind: kind, url: transfer.url, curlCode: Int(code.rawValue), message: message)
    }

    private static func timings(_ easy: UnsafeMutableRawPointer) -> FetchTimings {
        func seconds(_ info: CURLINFO) -> Double { Double(offset(easy, info)) / 1_000_000 }
        return FetchTimings(
            dns: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tls: seconds(CURLINFO_APPCONNECT_TIME_T), firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T),
            total: seconds(CURLINFO_TOTAL_TIME_T)
        )
    }

    private static func httpVersion(_ value: Int) -> String {
        switch value {
        case CURL_HTTP_VERSION_1_0: "1.0"
        case CURL_HTTP_VERSION_2_0: "2"
        case CURL_HTTP_VERSION_3: "3"
        default: "1.1"
        }
    }

    private static func long(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int {
        var value = 0
        return spotcheck_curl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private static func offset(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return spotcheck_curl_easy_getinfo_offset(easy, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    private static func string(_ easy: UnsafeMutableRawPointer, _ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard spotcheck_curl_easy_getinfo_string(easy, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
