public import Foundation
import LenientJSON
import NumericClamping
import Synchronization

/// Why a page could not be rendered.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No Chromium executable where it was looked for.
    case chromiumMissing(searched: [String])
    case couldNotStart(String)
    /// Chromium ended (or was ended) while a page was being rendered.
    case browserExited(String)
    /// Chromium refused a DevTools command, or a navigation failed.
    case protocolError(method: String, message: String)

    public var description: String {
        switch self {
        case .chromiumMissing(let searched):
            "--render needs headless Chromium, and none is installed (looked for \(searched.joined(separator: ", "))): "
                + "install Debian's package with `apt-get install chromium`"
        case .couldNotStart(let reason): "Chromium could not be started: \(reason)"
        case .browserExited(let reason): "Chromium ended: \(reason)"
        case .protocolError(let method, let message): "\(method): \(message)"
        }
    }
}

/// A request the page made while it rendered.
public struct RenderedRequest: Sendable, Hashable {
    public var url: String
    /// The DevTools resource type: `Document`, `Script`, `Stylesheet`, `XHR`, `Fetch`, `Image` …
    public var resourceType: String
    /// Refused because robots.txt disallows it for the agent rendering (as Applebot would not
    /// fetch it).
    public var blocked: Bool

    public init(url: String, resourceType: String, blocked: Bool) {
        self.url = url
        self.resourceType = resourceType
        self.blocked = blocked
    }
}

/// A page as Chromium left it: its DOM serialized after the load and a quiet network (or the
/// timeout), and the requests it made.
public struct RenderedPage: Sendable, Hashable {
    /// The serialized DOM (`<!DOCTYPE html>` and `document.documentElement.outerHTML`), UTF-8.
    public var html: String
    /// `location.href` when the DOM was read.
    public var finalURL: String
    public var requests: [RenderedRequest]
    /// The network was still busy at the timeout: the DOM is what there was then.
    public var timedOut: Bool
    public var seconds: Double
}

/// Renders pages in headless Chromium (issue 14 §1): one browser per crawl, at most `concurrency`
/// tabs at once, each page loaded with the crawl's User-Agent, every request it makes asked of
/// `isAllowed` first (refused ones recorded, as Applebot would not fetch them), its DOM read once
/// the network has been idle for 500 ms (Chromium's `networkIdle`) or `timeout` seconds have
/// passed. `--js-flags` bounds each page's JavaScript heap. Chromium cannot outlive the process
/// (`ChromiumProcess`); `shutdown()` ends it at once.
public final class ChromiumRenderer: Sendable {
    public struct Options: Sendable, Hashable {
        public var concurrency: Int
        /// Seconds per page, from navigation to the DOM read.
        public var timeout: Double
        public var userAgent: String
        /// The Chromium executable; nil: the first of the usual places (Debian's first).
        public var executable: String?
        /// The JavaScript heap a page may grow to, in MiB.
        public var heapMiB: Int

        public init(
            concurrency: Int = 2, timeout: Double = 15, userAgent: String, executable: String? = nil, heapMiB: Int = 512
        ) {
            self.concurrency = max(1, concurrency)
            self.timeout = timeout
            self.userAgent = userAgent
            self.executable = executable
            self.heapMiB = heapMiB
        }
    }

    public let options: Options
    private let process: ChromiumProcess
    private let connection: DevToolsConnection
    private let tabs: TabSlots

    /// Where Chromium is looked for when no executable is named.
    public static var searchedPlaces: [String] { ChromiumProcess.candidates }

    /// The Chromium executable `executable` names, or the first of `searchedPlaces`; nil when
    /// there is none.
    public static func browserExecutable(_ executable: String? = nil) -> String? {
        ChromiumProcess.locate(executable)
    }

    /// Starts Chromium.
    public init(options: Options) throws(RenderError) {
        guard let executable = ChromiumProcess.locate(options.executable) else {
            throw .chromiumMissing(searched: options.executable.map { [$0] } ?? ChromiumProcess.candidates)
        }
        self.options = options
        process = try ChromiumProcess(
            executable: executable,
            arguments: [
                "--js-flags=--max-old-space-size=\(options.heapMiB)",
                "--renderer-process-limit=\(options.concurrency)", "--disable-background-timer-throttling",
            ])
        connection = DevToolsConnection(process: process, commandTimeout: options.timeout + 10)
        tabs = TabSlots(count: options.concurrency)
    }

    /// The browser process (its renderers are its children) and its profile folder, which every
    /// Chromium process of this renderer names on its command line.
    public var processID: Int32 { process.processID }
    public var profileFolder: String { process.profile }

    /// The browser's product and version (`Browser.getVersion`): a cheap proof that it answers.
    public func version() async throws(RenderError) -> String {
        try await connection.send("Browser.getVersion")["product"]?.stringValue ?? "Chromium"
    }

    /// Loads `url` in a new tab and returns its DOM; `isAllowed` says which of the page's own
    /// requests may go (the document at `url` always does).
    public func render(_ url: String, isAllowed: @escaping @Sendable (String) async -> Bool) async throws(RenderError)
        -> RenderedPage
    {
        await tabs.acquire()
        defer { Task { await tabs.release() } }
        let started = ContinuousClock.now
        let target = try await connection.send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"]?.stringValue else {
            throw .protocolError(method: "Target.createTarget", message: "no targetId")
        }
        defer {
            Task { [connection] in _ = try? await connection.send("Target.closeTarget", ["targetId": .string(targetID)])
            }
        }
        let attached = try await connection.send(
            "Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let session = attached["sessionId"]?.stringValue else {
            throw .protocolError(method: "Target.attachToTarget", message: "no sessionId")
        }
        let events = connection.listen(to: session)
        defer { connection.stopListening(to: session) }
        let tab = Tab(connection: connection, session: session, mainFrame: targetID, isAllowed: isAllowed)
        try await tab.prepare(userAgent: options.userAgent)
        let timedOut = try await tab.load(url, events: events, timeout: options.timeout)
        let (finalURL, html) = try await tab.document()
        let elapsed = ContinuousClock.now - started
        return RenderedPage(
            html: html, finalURL: finalURL, requests: tab.requests, timedOut: timedOut,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Ends Chromium (its pipe closed, killed if it lingers) and removes its profile.
    public func shutdown() {
        process.terminate()
    }

    deinit {
        process.terminate(grace: 0)
    }
}

/// At most `count` tabs at once; waiters enter in order.
private actor TabSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// One tab's DevTools session while it loads a page.
private final class Tab: Sendable {
    let connection: DevToolsConnection
    let session: String
    /// The main frame's id, which is the target's id.
    let mainFrame: String
    let isAllowed: @Sendable (String) async -> Bool
    private let made = Mutex<[RenderedRequest]>([])
    /// Whether the page's own document request (the first of the main frame) has gone.
    private let documentRequested = Mutex(false)

    init(
        connection: DevToolsConnection, session: String, mainFrame: String,
        isAllowed: @escaping @Sendable (String) async -> Bool
    ) {
        self.connection = connection
        self.session = session
        self.mainFrame = mainFrame
        self.isAllowed = isAllowed
    }

    var requests: [RenderedRequest] { made.withLock { $0 } }

    func send(_ method: String, _ parameters: JSONObject = [:]) async throws(RenderError) -> JSONValue {
        try await connection.send(method, parameters, session: session)
    }

    /// The User-Agent, every request paused for `isAllowed`, lifecycle events on.
    func prepare(userAgent: String) async throws(RenderError) {
        _ = try await send("Network.setUserAgentOverride", ["userAgent": .string(userAgent)])
        _ = try await send("Fetch.enable", ["patterns": [["urlPattern": "*"]]])
        _ = try await send("Page.enable")
        _ = try await send("Page.setLifecycleEventsEnabled", ["enabled": true])
    }

    /// Navigates to `url` and waits for the network to be idle after the load of the main frame's
    /// latest document (a script or meta-refresh navigation starts another), answering the paused
    /// requests meanwhile, each in a task of its own; true when `timeout` came first.
    func load(_ url: String, events: AsyncStream<DevToolsEvent>, timeout: Double) async throws(RenderError) -> Bool {
        let idle = OneShot()
        let timer = Task {
            try? await Task.sleep(for: .nanoseconds(clampedNanoseconds(seconds: timeout)))
            idle.fire(true)
        }
        defer { timer.cancel() }
        let handler = Task {
            var loader: String?
            await withDiscardingTaskGroup { group in
                for await event in events {
                    switch event.method {
                    case "Fetch.requestPaused":
                        group.addTask { await self.answer(event.parameters) }
                    case "Page.lifecycleEvent" where event.parameters["frameId"]?.stringValue == mainFrame:
                        let current = event.parameters["loaderId"]?.stringValue
                        switch event.parameters["name"]?.stringValue {
                        case "init": loader = current
                        case "networkIdle" where current != nil && current == loader: idle.fire(false)
                        default: break
                        }
                    case "Inspector.targetCrashed": idle.fire(false)
                    default: break
                    }
                }
            }
            idle.fire(false)
        }
        defer { handler.cancel() }
        let navigation = try await send("Page.navigate", ["url": .string(url)])
        if let failure = navigation["errorText"]?.stringValue, !failure.isEmpty {
            throw .protocolError(method: "Page.navigate", message: "\(url): \(failure)")
        }
        return await idle.value()
    }

    /// A paused request: continued when allowed, failed (and recorded as blocked) when not.
    private func answer(_ parameters: JSONValue) async {
        guard let id = parameters["requestId"]?.stringValue, let url = parameters["request"]?["url"]?.stringValue
        else { return }
        let type = parameters["resourceType"]?.stringValue ?? "Other"
        // The page's own document (the main frame's first request) was fetched by the crawl already.
        let isPage =
            type == "Document" && parameters["frameId"]?.stringValue == mainFrame
            && documentRequested.withLock { requested in
                defer { requested = true }
                return !requested
            }
        let allowed = isPage || url.hasPrefix("data:") ? true : await isAllowed(url)
        made.withLock { $0.append(RenderedRequest(url: url, resourceType: type, blocked: !allowed)) }
        if allowed {
            _ = try? await send("Fetch.continueRequest", ["requestId": .string(id)])
        } else {
            _ = try? await send("Fetch.failRequest", ["requestId": .string(id), "errorReason": "BlockedByClient"])
        }
    }

    /// `location.href` and the serialized DOM.
    func document() async throws(RenderError) -> (String, String) {
        let expression =
            "JSON.stringify([location.href, (document.doctype ? '<!DOCTYPE html>\\n' : '') + "
            + "(document.documentElement ? document.documentElement.outerHTML : '')])"
        let result = try await send("Runtime.evaluate", ["expression": .string(expression), "returnByValue": true])
        guard let text = result["result"]?["value"]?.stringValue,
            let pair = JSONParser.parse(text, lenient: false).value?.arrayValue, pair.count == 2,
            let href = pair[0].stringValue, let html = pair[1].stringValue
        else {
            throw .protocolError(method: "Runtime.evaluate", message: "no document")
        }
        return (href, html)
    }
}

/// A value set once (the first `fire` wins) that any number of callers may await, before or after.
private final class OneShot: Sendable {
    private struct State {
        var value: Bool?
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }
    private let state = Mutex(State())

    func fire(_ value: Bool) {
        let waiting = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(returning: value) }
    }

    func value() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool? in
                if let value = state.value { return value }
                state.waiting.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
