import ArgumentParser
import Foundation
import LoopbackServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder on 127.0.0.1 with SpotCheck's embedded HTTP server (what `crawl FOLDER` does).",
        discussion: """
            Runs until interrupted (SIGINT or SIGTERM); exit 6 when the folder cannot be served.

            \(ExitStatus.help([.success, .crawlFailed, .usage]))
            """
    )

    @Argument(help: "The folder to serve.")
    var folder: String

    @Option(parsing: .unconditional, help: "The port (0: any free port).")
    var port = 8080

    func validate() throws {
        if !(0...65_535).contains(port) { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            Console.log.error("\(folder): not a folder")
            throw ExitStatus.crawlFailed
        }
        let server: RunningServer
        do {
            server = try await FolderServer(root: folder, port: port).start()
        } catch let error as LoopbackServerError {
            Console.log.error("cannot serve \(folder): \(error); name another with --port (0: any free port)")
            throw ExitStatus.crawlFailed
        } catch {
            Console.log.error("cannot serve \(folder) on 127.0.0.1:\(port): \(error)")
            throw ExitStatus.crawlFailed
        }
        FileHandle.standardOutput.write(Data("serving \(folder) at \(server.baseURL)\n".utf8))
        // Serves until the process is interrupted or terminated (the default signal actions end it).
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: 3_600_000_000_000)
        }
        await server.stop()
    }
}
