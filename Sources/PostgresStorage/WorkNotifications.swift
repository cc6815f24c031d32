import Dispatch
import Foundation
import Logging
import PostgresNIO

/// How idle workers hear of new work: PostgreSQL's `LISTEN`/`NOTIFY` on a connection of its own.
/// Every transaction that queues URLs, frees a host or ends a crawl sends `NOTIFY spotcheck_work`
/// with the crawl's id; a worker waiting for work wakes on it instead of polling tightly. When
/// the listening connection is lost, waits fall back to their timeout and the next wait listens
/// again.
final class WorkNotifications: @unchecked Sendable {
    // @unchecked: `connection` and `crawl` are read and written only with `lock` held; the
    // semaphore is thread-safe; `location` and `logger` are immutable.
    static let channel = "spotcheck_work"
    private let location: PostgresLocation
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var crawl: Int64?
    private let arrived = DispatchSemaphore(value: 0)
    private let logger: Logger

    init(location: PostgresLocation) {
        self.location = location
        var logger = Logger(label: "spotcheck.postgres.listen")
        logger.logLevel = .critical
        self.logger = logger
    }

    /// Waits up to `seconds` for a notification about crawl `id` that came since the last wait
    /// (one that came before returns at once).
    func wait(crawl id: Int64, seconds: Double) {
        listen(crawl: id)
        _ = arrived.wait(timeout: .now() + seconds)
    }

    /// Forgets notifications that came so far (called before looking at the database, so that
    /// whatever comes after the look wakes the next wait).
    func forgetEarlier() {
        while arrived.wait(timeout: .now()) == .success {}
    }

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        if let connection { _ = try? connection.close().wait() }
        connection = nil
    }

    /// Listens on a connection of its own, made if there is none (or the last one closed).
    private func listen(crawl id: Int64) {
        lock.lock()
        defer { lock.unlock() }
        crawl = id
        if let connection, !connection.isClosed { return }
        connection = nil
        guard let made = try? PostgresSession.connect(to: location, id: -1, logger: logger) else { return }
        connection = made
        let payload = String(id)
        made.addListener(channel: Self.channel) { [arrived] _, notification in
            if notification.payload == payload { arrived.signal() }
        }
    }
}

/// A repeating timer on a queue of its own (the lease renewal).
final class LeaseRenewal: @unchecked Sendable {
    // @unchecked: both properties are immutable, and a dispatch source may be scheduled,
    // resumed and cancelled from any thread.
    private let timer: any DispatchSourceTimer
    private let interval: Double

    init(every seconds: Double) {
        interval = seconds
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "spotcheck.lease-renewal"))
    }

    func start(_ work: @escaping @Sendable () -> Void) {
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: work)
        timer.resume()
    }

    func stop() {
        timer.cancel()
    }
}
