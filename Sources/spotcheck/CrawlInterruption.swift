import CrawlJobs
import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) during `crawl`: says where the crawl so far is and the command that continues
/// it, then exits 130. The store commits each page with its links in one transaction, so an
/// interrupted crawl resumes as a killed one does (`ResumeTests`).
final class CrawlInterruption: Sendable {
    /// How far the crawl got, as the job's events say.
    enum Stage: Sendable {
        /// Checking inputs, serving the folder, opening the store: nothing to resume yet.
        case starting
        /// Fetching pages into the store in `folder`.
        case crawling(folder: String)
        /// The crawl in `folder` is finished; its reports are being written.
        case reporting(folder: String)
        /// Fetching pages of crawl `id` of the PostgreSQL database `store` (its URL without the
        /// password), whose workers go on without this process, or writing its reports into `folder`.
        case sharing(id: Int64, store: String, folder: String)
    }

    private struct State {
        var stage = Stage.starting
        var source: (any DispatchSourceSignal)?
    }

    private let state = Mutex(State())
    private let console: CrawlConsole
    /// `--format` as given, repeated in the `spotcheck report` hint.
    private let formats: String
    /// A line after the resume command: the `--header`/`--basic-auth` options to give again
    /// (their values are never stored).
    private let resumeHint: String?
    /// `--store FILE`: where the pages are, and what the resume command names.
    private let storeFile: String?

    /// Takes over SIGINT for the rest of the process.
    init(console: CrawlConsole, formats: String, resumeHint: String? = nil, storeFile: String? = nil) {
        self.storeFile = storeFile
        self.console = console
        self.formats = formats
        self.resumeHint = resumeHint
        signal(SIGINT, SIG_IGN)
        state.withLock { state in
            let source = DispatchSource.makeSignalSource(
                signal: SIGINT, queue: DispatchQueue(label: "spotcheck.sigint"))
            source.setEventHandler { [self] in interrupted() }
            source.resume()
            state.source = source
        }
    }

    /// Follows the job's events: the store is open, the crawl is finished.
    func follow(_ event: CrawlEvent) {
        state.withLock { state in
            switch (event, state.stage) {
            case (.crawlStarted(let folder), _): state.stage = .crawling(folder: folder)
            case (.sharedCrawlRegistered(let id, let store), .crawling(let folder)):
                state.stage = .sharing(id: id, store: store, folder: folder)
            case (.crawlFinished, .crawling(let folder)): state.stage = .reporting(folder: folder)
            default: break
            }
        }
    }

    /// What to tell a person who pressed Ctrl-C at `stage`.
    /// `program`: the command as the person typed it (`CommandLine.arguments[0]`: `spotcheck`, or
    /// `./.build/release/spotcheck`), so the hint runs as written.
    static func message(
        at stage: Stage, formats: String, resumeHint: String? = nil, storeFile: String? = nil,
        program: String = "spotcheck"
    ) -> String {
        let program = shellQuoted(program)
        switch stage {
        case .starting:
            return "spotcheck: interrupted before the crawl started; nothing to resume\n"
        case .crawling(let folder):
            return """
                spotcheck: interrupted; the pages crawled so far are in \(storeFile ?? folder + "/crawl.sqlite")
                spotcheck: continue the crawl with: \(program) crawl --resume --output \(shellQuoted(folder))\(storeFile.map { " --store " + shellQuoted($0) } ?? "")
                \(resumeHint.map { "spotcheck: \($0)\n" } ?? "")
                """
        case .sharing(let id, let store, let folder):
            let format = formats == "json" ? "" : " --format \(shellQuoted(formats))"
            return """
                spotcheck: interrupted; crawl \(id) and the pages crawled so far are in \(store)
                spotcheck: its workers go on; continue it here too with: \(program) worker --store \(shellQuoted(store)) --crawl \(id)
                spotcheck: once it is over, write its reports with: \(program) report \(shellQuoted(store)) --crawl \(id) --output \(shellQuoted(folder))\(format)

                """
        case .reporting(let folder):
            let format = formats == "json" ? "" : " --format \(shellQuoted(formats))"
            return """
                spotcheck: interrupted while writing the reports; the crawl itself is finished in \(folder)/crawl.sqlite
                spotcheck: write its reports with: \(program) report \(shellQuoted(folder))\(format)

                """
        }
    }

    /// A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain =
            !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:,=@".contains($0)) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func interrupted() {
        console.progress.finish()
        console.output.flush()
        let stage = state.withLock { $0.stage }
        FileHandle.standardError.write(
            Data(
                Self.message(
                    at: stage, formats: formats, resumeHint: resumeHint, storeFile: storeFile,
                    program: CommandLine.arguments.first ?? "spotcheck"
                ).utf8))
        // At once, as a kill would: the store is consistent after every committed page.
        _exit(ExitStatus.interrupted.rawValue)
    }
}
