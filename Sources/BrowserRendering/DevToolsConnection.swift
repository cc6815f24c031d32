import Foundation
import LenientJSON
import NumericClamping
import Synchronization

/// One event of the DevTools protocol: its method (`Page.lifecycleEvent` …) and parameters.
struct DevToolsEvent: Sendable {
    var method: String
    var parameters: JSONValue
}

/// The DevTools protocol over a `ChromiumProcess`'s pipe: each message a JSON object ended by a
/// NUL byte; a command's answer matched to it by id; events handed to the session (one tab) that
/// listens for them. One thread reads the pipe; callers await their answers. When Chromium ends,
/// every waiting command fails with `browserExited`.
final class DevToolsConnection: Sendable {
    private struct State {
        var nextID = 1
        var waiting: [Int: (method: String, continuation: CheckedContinuation<JSONValue, any Error>)] = [:]
        var listeners: [String: AsyncStream<DevToolsEvent>.Continuation] = [:]
        var closed: RenderError?
    }

    private let process: ChromiumProcess
    private let state = Mutex(State())
    /// Seconds a command may wait for its answer: a renderer stuck in a script never answers
    /// `Runtime.evaluate`, and nothing may wait on it forever.
    private let commandTimeout: Double

    init(process: ChromiumProcess, commandTimeout: Double) {
        self.process = process
        self.commandTimeout = commandTimeout
        let thread = Thread { [self] in readUntilClosed() }
        thread.name = "spotcheck-devtools"
        thread.start()
    }

    /// Sends `method` (to the tab `session`, or the browser) and waits for its result.
    func send(_ method: String, _ parameters: JSONObject = [:], session: String? = nil) async throws(RenderError)
        -> JSONValue
    {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let id: Int? = state.withLock { state in
                    if let closed = state.closed {
                        continuation.resume(throwing: closed)
                        return nil
                    }
                    let id = state.nextID
                    state.nextID += 1
                    state.waiting[id] = (method, continuation)
                    return id
                }
                guard let id else { return }
                let timeout = commandTimeout
                Task { [weak self] in
                    try? await Task.sleep(for: .nanoseconds(clampedNanoseconds(seconds: timeout)))
                    self?.expire(id, after: timeout)
                }
                var message: JSONObject = [
                    "id": JSONValue(id), "method": .string(method), "params": .object(parameters),
                ]
                if let session { message.append("sessionId", .string(session)) }
                do {
                    try process.write(Array(JSONValue.object(message).serialized(pretty: false).utf8) + [0])
                } catch {
                    let waiting = state.withLock { $0.waiting.removeValue(forKey: id) }
                    waiting?.continuation.resume(throwing: error)
                }
            }
        } catch let error as RenderError {
            throw error
        } catch {
            throw .protocolError(method: method, message: "\(error)")
        }
    }

    /// Fails command `id` if it is still waiting.
    private func expire(_ id: Int, after seconds: Double) {
        guard let command = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        command.continuation.resume(
            throwing: RenderError.protocolError(
                method: command.method, message: "no answer from Chromium within \(clampedInt(seconds)) s"))
    }

    /// The events of the tab `session`, from now until `stopListening(to:)`.
    func listen(to session: String) -> AsyncStream<DevToolsEvent> {
        let (stream, continuation) = AsyncStream<DevToolsEvent>.makeStream()
        state.withLock { $0.listeners[session] = continuation }
        return stream
    }

    func stopListening(to session: String) {
        state.withLock { $0.listeners.removeValue(forKey: session) }?.finish()
    }

    /// The reader thread: splits the pipe into messages and delivers each, until the pipe ends.
    private func readUntilClosed() {
        var pending: [UInt8] = []
        while true {
            let chunk = process.read()
            if chunk.isEmpty { break }
            // Only the new bytes are searched for message ends, and the delivered messages are
            // dropped from the buffer at once: a many-megabyte DOM costs one pass.
            var start = 0
            var searched = pending.count
            pending += chunk
            while let end = pending[searched...].firstIndex(of: 0) {
                deliver(Array(pending[start..<end]))
                start = end + 1
                searched = start
            }
            if start > 0 { pending.removeSubrange(..<start) }
        }
        process.closeReplies()
        let (waiting, listeners) = state.withLock { state in
            state.closed = .browserExited("Chromium closed the DevTools pipe")
            defer {
                state.waiting = [:]
                state.listeners = [:]
            }
            return (state.waiting, state.listeners)
        }
        for command in waiting.values {
            command.continuation.resume(throwing: RenderError.browserExited("Chromium ended during \(command.method)"))
        }
        for listener in listeners.values { listener.finish() }
    }

    private func deliver(_ bytes: [UInt8]) {
        guard let message = JSONParser.parse(String(decoding: bytes, as: UTF8.self), lenient: false).value else {
            return
        }
        if let id = message["id"]?.intValue {
            guard let command = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
            if let error = message["error"] {
                command.continuation.resume(
                    throwing: RenderError.protocolError(
                        method: command.method, message: error["message"]?.stringValue ?? "\(error)"))
            } else {
                command.continuation.resume(returning: message["result"] ?? .null)
            }
        } else if let method = message["method"]?.stringValue, let session = message["sessionId"]?.stringValue {
            let listener = state.withLock { $0.listeners[session] }
            listener?.yield(DevToolsEvent(method: method, parameters: message["params"] ?? .null))
        }
    }
}
