// The only file that touches libcurl: the multi handle, the easy handles, their callbacks, and the
// conversion of what libcurl reports into `FetchResponse` / `FetchError` values.

import CCurl
import Foundation
import NumericClamping
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
/// as callable from any thread. Other threads call it only while holding `CurlMultiLoop`'s inbox
/// lock and only while the inbox says the loop is not `closed`; the loop thread sets `closed` and
/// runs `curl_multi_cleanup` under that same lock, so no wakeup can reach a cleaned-up handle.
struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// Runs libcurl's multi interface on one dedicated thread. Other threads talk to it only through
/// `inbox` (a mutex) and `curl_multi_wakeup` (called with the mutex held).
///
/// Transfer IDs are handed out by ``makeTransferID()`` before submission, and every ID handed out
/// must then be submitted once (``Fetcher`` does, even for a cancelled task). The inbox tracks each
/// ID from hand-out to completion, so a cancellation is kept only for an ID not yet submitted
/// (until its submission consumes it), forwarded to the loop only for a transfer in flight, and
/// dropped for an ID that has completed: every set is bounded by the transfers in progress.
final class CurlMultiLoop: Sendable {
    private struct Inbox {
        var submissions: [TransferSubmission] = []
        /// Cancellations of transfers in flight, for the loop thread to act on.
        var cancellations: Set<UInt64> = []
        /// IDs handed out and not yet submitted.
        var unsubmitted: Set<UInt64> = []
        /// IDs among `unsubmitted` whose task was cancelled: their submission completes at once.
        var cancelledBeforeSubmission: Set<UInt64> = []
        /// IDs submitted whose completion has not been called yet.
        var inFlight: Set<UInt64> = []
        /// Set by `shutdown()`: submissions are refused from then on.
        var stopping = false
        /// Set by the loop thread when it cleans up the multi handle (only after `stopping`).
        var closed = false
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

    /// A new transfer ID; submit it once with ``submit(id:request:completion:)``.
    func makeTransferID() -> UInt64 {
        inbox.withLock { inbox in
            defer { inbox.nextID += 1 }
            inbox.unsubmitted.insert(inbox.nextID)
            return inbox.nextID
        }
    }

    /// Hands a transfer to the loop thread. `completion` is called once: by the loop thread with
    /// the result, or at once (on this thread) when the ID was cancelled already or the loop is
    /// shutting down.
    func submit(
        id: UInt64, request: FetchRequest, completion: @escaping @Sendable (Result<FetchResponse, FetchError>) -> Void
    ) {
        enum Outcome { case queued, cancelled, refused }
        // The loop thread calls this instead of `completion`: the ID leaves `inFlight` first.
        let finish: @Sendable (Result<FetchResponse, FetchError>) -> Void = { [self] result in
            inbox.withLock { _ = $0.inFlight.remove(id) }
            completion(result)
        }
        let outcome = inbox.withLock { inbox -> Outcome in
            inbox.unsubmitted.remove(id)
            if inbox.cancelledBeforeSubmission.remove(id) != nil { return .cancelled }
            guard !inbox.stopping else { return .refused }
            inbox.inFlight.insert(id)
            inbox.submissions.append(TransferSubmission(id: id, request: request, completion: finish))
            // Not `closed`: the loop closes only after `stopping`.
            curl_multi_wakeup(multi.pointer)
            return .queued
        }
        switch outcome {
        case .queued: break
        case .cancelled:
            completion(.failure(FetchError(kind: .cancelled, url: request.url, message: "cancelled")))
        case .refused:
            completion(.failure(FetchError(kind: .cancelled, url: request.url, message: "the fetcher was shut down")))
        }
    }

    /// Cancels a transfer: before its submission (which then completes as cancelled), or while in
    /// flight. A cancellation that comes after the completion does nothing.
    func cancel(id: UInt64) {
        inbox.withLock { inbox in
            if inbox.unsubmitted.contains(id) {
                inbox.cancelledBeforeSubmission.insert(id)
            } else if inbox.inFlight.contains(id), !inbox.closed {
                inbox.cancellations.insert(id)
                curl_multi_wakeup(multi.pointer)
            }
        }
    }

    func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            // Not `closed`: the loop closes only after `stopping`.
            curl_multi_wakeup(multi.pointer)
        }
    }

    /// The sizes of the inbox's per-ID records (for tests: all zero when no transfer is in
    /// progress).
    struct Bookkeeping: Equatable, Sendable {
        var unsubmitted = 0
        var cancelledBeforeSubmission = 0
        var inFlight = 0
        var cancellationsQueued = 0
    }

    var bookkeeping: Bookkeeping {
        inbox.withLock { inbox in
            Bookkeeping(
                unsubmitted: inbox.unsubmitted.count, cancelledBeforeSubmission: inbox.cancelledBeforeSubmission.count,
                inFlight: inbox.inFlight.count, cancellationsQueued: inbox.cancellations.count)
        }
    }

    /// Whether the loop thread has ended and cleaned up the multi handle.
    var hasExited: Bool { inbox.withLock { $0.closed } }

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
            for submission in submissions {
                if cancellations.contains(submission.id) {
                    // Submitted and cancelled before the loop took either.
                    submission.completion(
                        .failure(FetchError(kind: .cancelled, url: submission.request.url, message: "cancelled")))
                } else {
                    transfers.start(submission)
                }
            }
            transfers.cancel(ids: cancellations)
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
        // The iteration that saw `stopping` took every submission (`submit` refuses new ones
        // from then on) and completed them all; what is left is the handle itself.
        inbox.withLock { inbox in
            inbox.closed = true
            curl_multi_cleanup(multi.pointer)
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
    /// Header bytes of every response of the transfer, the informational (1xx) ones included: a
    /// storm of `100 Continue` is one response's worth of headers, not a fresh allowance each.
    var headerBytes = 0
    /// Informational responses before the current one (status lines seen, less one).
    var informationalResponses = 0
    /// The current response's `Content-Length` value, once one was given.
    var contentLength: String?
    /// Set when a callback stopped the transfer because a cap was exceeded or the response is
    /// not one to read; `exceededMessage` says why when the kind's usual words do not.
    var exceeded: FetchError.Kind?
    var exceededMessage: String?
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
            if headerBytes > 0 { informationalResponses += 1 }
            headers.removeAll()
            contentLength = nil
        }
        // Not reset at a new status line: a 1xx storm was retried as `connection-dropped` after
        // the server gave up (issue 35 §8); it now ends at the cap as `headers-too-large`.
        headerBytes += count
        guard headerBytes <= limits.maximumHeaderBytes else {
            exceeded = .headersTooLarge
            if informationalResponses > 0 {
                exceededMessage =
                    "response headers larger than \(limits.maximumHeaderBytes) bytes, counting "
                    + "\(informationalResponses) informational (1xx) responses before the final one"
            }
            return 0
        }
        var line = Substring(decoding: bytes, as: UTF8.self)
        while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line.removeLast() }
        guard !line.isEmpty, !line.hasPrefix("HTTP/") else { return count }
        if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
            headers[headers.count - 1].value += " " + line.trimming(" \t")
        } else if let colon = line.firstIndex(of: ":") {
            let header = HTTPHeader(String(line[..<colon]), line[line.index(after: colon)...].trimming(" \t"))
            headers.append(header)
            guard acceptsLength(announcedBy: header) else { return 0 }
            reserveBody(announcedBy: header)
        }
        return count
    }

    /// False (and the transfer stopped as a `protocol-error`) when `header` is a `Content-Length`
    /// that differs from one before it, or a list of different values: the body's length cannot
    /// be known, and RFC 9112 §6.3 says such a response is unrecoverable. libcurl used one of them
    /// silently (the shorter page). The same value repeated is accepted, as §6.3 allows.
    private func acceptsLength(announcedBy header: HTTPHeader) -> Bool {
        guard header.name.utf8.count == 14, header.name.lowercased() == "content-length" else { return true }
        for value in header.value.split(separator: ",") {
            let length = value.trimming(" \t")
            if let known = contentLength, known != length {
                exceeded = .protocolError
                exceededMessage =
                    "two different Content-Length values (\(known) and \(length)): the body's length cannot be "
                    + "known (RFC 9112 §6.3)"
                return false
            }
            contentLength = length
        }
        return true
    }

    /// Sizes the body buffer once from `Content-Length` (within the cap), so a large page is not
    /// copied on every doubling; a wrong or encoded length only makes the hint imprecise.
    private func reserveBody(announcedBy header: HTTPHeader) {
        guard body.isEmpty, header.name.utf8.count == 14, header.name.lowercased() == "content-length",
            let length = Int(header.value), length > 0
        else { return }
        body.reserveCapacity(min(length, bodyCap.bytes))
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

    init(multi: UnsafeMutableRawPointer, configuration: FetcherConfiguration) {
        self.multi = multi
        self.configuration = configuration
    }

    func start(_ submission: TransferSubmission) {
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
        if let authorities = configuration.certificateAuthorities { set(CURLOPT_CAINFO, authorities) }
        set(CURLOPT_CONNECTTIMEOUT_MS, clampedInt(limits.connectTimeout * 1000))
        set(CURLOPT_TIMEOUT_MS, clampedInt(limits.timeout * 1000))
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

    /// Removes and completes the transfers with these IDs; an ID no longer active (its transfer
    /// completed after the cancellation was queued) is ignored.
    func cancel(ids: some Collection<UInt64>) {
        guard !ids.isEmpty else { return }
        for id in ids {
            guard let (easy, transfer) = active.first(where: { $0.value.submission.id == id }) else { continue }
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
                if let explained = transfer.exceededMessage {
                    explained
                } else if kind == .tooLarge {
                    "body larger than \(transfer.bodyCap.bytes) bytes (after decoding)"
                } else {
                    "response headers larger than \(transfer.limits.maximumHeaderBytes) bytes"
                }
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
        // A reply that is not HTTP is the server's fault, not the URL's nor the network's (issue 17
        // §2.11): libcurl 7.88 words a missing or garbled status line "Received HTTP/0.9 when not
        // allowed" and a status like -200 "Unsupported response code" under CURLE_UNSUPPORTED_PROTOCOL,
        // and a bad chunk size "Illegal or missing hexadecimal sequence in chunked-encoding" under
        // CURLE_RECV_ERROR. Neither is retried (`isTransient`).
        case CURLE_RECV_ERROR where message.localizedCaseInsensitiveContains("chunk"):
            kind = .protocolError
        // A broken HTTP/2 frame sequence (nghttp2 refusing it, e.g. "Too many CONTINUATION frames
        // following a HEADER frame") also arrives as CURLE_RECV_ERROR; only the message tells.
        case CURLE_RECV_ERROR where message.contains("nghttp2"):
            kind = .protocolError
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR: kind = .connectionDropped
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM: kind = .protocolError
        case CURLE_UNSUPPORTED_PROTOCOL
        where message.contains("HTTP/0.9") || message.localizedCaseInsensitiveContains("response code"):
            kind = .protocolError
        // libcurl refuses a header line over its 100 KB limit as "Out of memory", before the header
        // callback (and its cap) sees it.
        case CURLE_OUT_OF_MEMORY where transfer.body.isEmpty:
            kind = .headersTooLarge
            message = "a response header line longer than libcurl accepts (curl: \(message))"
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
