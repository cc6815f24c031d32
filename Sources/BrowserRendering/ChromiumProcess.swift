import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Headless Chromium with the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands in
/// on its fd 3, replies out on its fd 4), the only file that makes POSIX calls for it. Chromium
/// ends when that pipe closes, so it cannot outlive this process, not even a `kill -9` of it: the
/// kernel closes our ends and Chromium reads the end of its input. Its profile is a temporary
/// folder, removed by `terminate()`.
final class ChromiumProcess: Sendable {
    /// Where Debian's `chromium` package (and others) put the browser; the real binary first, as
    /// Debian's `/usr/bin/chromium` is a shell wrapper.
    static let candidates = [
        "/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
    ]

    let processID: pid_t
    /// The command pipe's write end; nil once closed. Writes and the close happen under the lock,
    /// so no write reaches a descriptor number the process has since reused, and two commands
    /// never interleave.
    private let toBrowser: Mutex<Int32?>
    private let fromBrowser: Int32
    let profile: String
    private let ended = Mutex(false)

    /// The first executable of `candidates` (or `executable` when given).
    static func locate(_ executable: String?) -> String? {
        (executable.map { [$0] } ?? candidates).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts `executable` headless with `arguments` added.
    init(executable: String, arguments: [String]) throws(RenderError) {
        // A write to a Chromium that has just died must fail with EPIPE, not kill the crawl.
        signal(SIGPIPE, SIG_IGN)
        profile = NSTemporaryDirectory() + "spotcheck-render-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        } catch {
            throw .couldNotStart("its profile folder \(profile) cannot be created: \(error.localizedDescription)")
        }
        var commands: [Int32] = [-1, -1]
        var replies: [Int32] = [-1, -1]
        guard pipe(&commands) == 0 else { throw Self.failure("pipe", profile: profile) }
        guard pipe(&replies) == 0 else {
            commands.forEach { close($0) }
            throw Self.failure("pipe", profile: profile)
        }
        // Close-on-exec, so no other child this process starts inherits them (Glibc does not
        // export pipe2): Chromium gets its two ends by dup2 below.
        for descriptor in commands + replies { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let all =
            [
                executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
                "--remote-debugging-pipe", "--user-data-dir=\(profile)",
            ]
            + arguments + ["about:blank"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto 3 and 4 clears close-on-exec there; the pipe's own descriptors stay closed.
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, replies[1], 4)
        let devNull = "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, devNull, O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, devNull, O_WRONLY, 0)
        // A process group of its own (its id is Chromium's): `terminate` ends the helpers with it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let argv = all.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(commands[0])
        close(replies[1])
        guard status == 0 else {
            close(commands[1])
            close(replies[0])
            try? FileManager.default.removeItem(atPath: profile)
            throw .couldNotStart("\(executable): \(String(cString: strerror(status)))")
        }
        processID = pid
        toBrowser = Mutex(commands[1])
        fromBrowser = replies[0]
    }

    private static func failure(_ call: String, profile: String) -> RenderError {
        let reason = String(cString: strerror(errno))
        try? FileManager.default.removeItem(atPath: profile)
        return .couldNotStart("\(call): \(reason)")
    }

    /// Writes all of `bytes` to Chromium's command pipe.
    func write(_ bytes: [UInt8]) throws(RenderError) {
        let failure: String? = toBrowser.withLock { descriptor in
            guard let descriptor else { return "Chromium was ended" }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in
                    Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    return "writing to Chromium: \(String(cString: strerror(errno)))"
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .browserExited(failure) }
    }

    /// Reads what Chromium wrote next (blocking); empty at the end of the pipe.
    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fromBrowser, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count <= 0 ? [] : Array(buffer.prefix(count))
        }
    }

    /// Ends Chromium: its command pipe closed (it quits), a kill after `grace` seconds if it has
    /// not, the process reaped and its profile removed (again while its helpers bring files back).
    /// Safe to call more than once.
    func terminate(grace: Double = 3) {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        toBrowser.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(grace)
        while waitpid(processID, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(processID, SIGKILL)
                waitpid(processID, &status, 0)
                break
            }
            usleep(20_000)
        }
        // Chromium's helpers (zygote, renderers, crashpad) end just after it and may still write
        // into the profile, failing a removal or bringing a folder back (clean-clone CI runs under
        // load found the folder left behind twice). They are in its process group: any still
        // there is killed; then the profile is removed again until it stays gone for 100 ms, for
        // up to 2 s.
        kill(-processID, SIGKILL)
        for _ in 0..<20 {
            try? FileManager.default.removeItem(atPath: profile)
            usleep(100_000)
            guard FileManager.default.fileExists(atPath: profile) else { break }
        }
    }

    /// Closes the reply pipe: called once by the one thread that reads it, after the end of it.
    func closeReplies() {
        close(fromBrowser)
    }

    deinit {
        terminate(grace: 0)
    }
}
