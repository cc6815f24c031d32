import Foundation
import Logging
import Synchronization

/// What spotcheck says to people, through swift-log, on standard error, one line each:
/// `spotcheck: error: …`, `spotcheck: warning: …`, and `spotcheck: …` for notices (what a run
/// should say as it happens: a wait, the stand-in origin, why the exit status is 1) and, with
/// `--verbose`, info and debug. `--quiet` shortens standard output (results: reports, listings,
/// summaries), not these.
enum Console {
    /// How much is said: `.notice`, or `.debug` with `--verbose`.
    private static let threshold = Mutex(Logger.Level.notice)

    /// Sets the threshold from a command's `--verbose`.
    static func configure(verbose: Bool) {
        threshold.withLock { $0 = verbose ? .debug : .notice }
    }

    /// The logger every command writes its messages to.
    static var log: Logger {
        var logger = Logger(label: "spotcheck")
        logger.logLevel = threshold.withLock { $0 }
        return logger
    }

    /// Routes swift-log to `StandardErrorLines` (once per process, before any command runs).
    static func bootstrap() {
        LoggingSystem.bootstrap { _ in StandardErrorLines() }
    }
}

/// A swift-log handler writing `spotcheck: <level>: message` lines to standard error, the line
/// being redrawn by the progress display ended first.
struct StandardErrorLines: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .notice

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let prefix: String
        switch event.level {
        case .critical, .error: prefix = "spotcheck: error: "
        case .warning: prefix = "spotcheck: warning: "
        case .notice, .info, .debug, .trace: prefix = "spotcheck: "
        }
        TerminalProgress.current?.interrupt()
        FileHandle.standardError.write(Data((prefix + event.message.description + "\n").utf8))
    }
}
