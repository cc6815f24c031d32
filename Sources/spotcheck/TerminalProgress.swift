import ArgumentParser
import Crawling
import Foundation
import NumericClamping
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How much a command prints: `-q/--quiet` (the report path and the totals), the default (a
/// short summary and the top rules), `-v/--verbose` (every page's findings too, and info
/// messages); `--no-progress` turns the live progress line off on a terminal.
struct Verbosity: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print only the report path and the totals (messages on stderr stay).")
    var quiet = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Also list every page's findings, and say more of what happens (--quiet wins over it).")
    var verboseFlag = false

    @Flag(help: "No live progress line, even on a terminal.")
    var noProgress = false

    /// `--verbose`, unless `--quiet` (from the command line or a configuration file) says otherwise.
    var verbose: Bool { verboseFlag && !quiet }

    /// Whether the live progress line is drawn: on a terminal that is not `TERM=dumb` only, unless
    /// quiet or turned off.
    var showsProgress: Bool {
        // A dumb terminal cannot redraw a line (it has no erase-to-end-of-line).
        !quiet && !noProgress && isatty(STDERR_FILENO) == 1 && TerminalStyle.allowsEscapes()
    }
}

/// The live progress line on a terminal: the phase, pages done of those known (with the
/// percentage), pages per second, the time left at that rate, errors and skipped URLs, redrawn
/// four times a second (so the clock moves while a slow page is fetched) and cut to the
/// terminal's width. Messages logged meanwhile end the line first (`interrupt`).
final class TerminalProgress: Sendable {
    /// The display being drawn, for the log handler.
    static var current: TerminalProgress? { active.withLock { $0 } }
    private static let active = Mutex<TerminalProgress?>(nil)

    private struct State {
        var tally: CrawlProgress?
        var phase = "starting"
        var started = Date()
        var drawn = false
        var stopped = false
    }

    private let state = Mutex(State())

    /// Starts drawing (nothing when `enabled` is false).
    init(enabled: Bool) {
        guard enabled else {
            state.withLock { $0.stopped = true }
            return
        }
        Self.active.withLock { $0 = self }
        Task.detached { [weak self] in
            while let self, !self.state.withLock({ $0.stopped }) {
                self.draw()
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    func show(_ tally: CrawlProgress) {
        state.withLock {
            $0.tally = tally
            $0.phase = "crawling"
        }
    }

    /// The stage the command is in ("robots.txt", "crawling", "writing reports" …).
    func phase(_ name: String) {
        state.withLock { $0.phase = name }
        draw()
    }

    /// Clears the line so that a message printed now starts at its beginning.
    func interrupt() {
        state.withLock { state in
            guard state.drawn else { return }
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            state.drawn = false
        }
    }

    /// Stops drawing and clears the line.
    func finish() {
        interrupt()
        state.withLock { $0.stopped = true }
        Self.active.withLock { if $0 === self { $0 = nil } }
    }

    private func draw() {
        state.withLock { state in
            guard !state.stopped else { return }
            let line = Self.line(
                state.tally, phase: state.phase, elapsed: Date().timeIntervalSince(state.started),
                width: Self.terminalWidth())
            FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
            state.drawn = true
        }
    }

    /// The line for a tally, at most `width - 1` characters.
    static func line(_ tally: CrawlProgress?, phase: String, elapsed: Double, width: Int) -> String {
        var parts = [phase]
        if let tally {
            let percent = tally.known > 0 ? " (\(100 * tally.done / tally.known) %)" : ""
            parts.append("\(tally.done)/\(tally.known) pages\(percent)")
            parts.append(String(format: "%.1f pages/s", tally.pagesPerSecond))
            if let left = tally.secondsLeft, tally.known > tally.done { parts.append("ETA \(duration(left))") }
            parts.append(tally.errors == 1 ? "1 error" : "\(tally.errors) errors")
            parts.append("\(tally.skipped) skipped")
        }
        parts.append(duration(elapsed))
        let text = parts.joined(separator: " · ")
        return String(text.prefix(max(10, width - 1)))
    }

    /// `42 s`, `3 min 05 s`, `1 h 02 min`.
    static func duration(_ seconds: Double) -> String {
        let total = clampedInt(seconds.rounded())
        if total < 60 { return "\(total) s" }
        if total < 3600 { return String(format: "%d min %02d s", total / 60, total % 60) }
        return String(format: "%d h %02d min", total / 3600, total % 3600 / 60)
    }

    /// The terminal's columns (80 when standard error is not a terminal or does not say).
    static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
