package import Hummingbird
import Logging
import ServiceLifecycle

/// A server started by ``FolderServer/start()`` (or by the test-support torture server): the
/// port it is bound to and the handle that stops it.
///
/// Call ``stop()`` when done. Dropping the last reference without stopping cancels the server
/// task, which closes the listening socket soon after, but only ``stop()`` waits for that.
public final class RunningServer: Sendable {
    /// The TCP port the listening socket is bound to (the kernel's choice when port 0 was asked).
    public let port: Int
    /// The host the server was asked to listen on.
    public let host: String

    private let serviceGroup: ServiceGroup
    private let task: Task<Void, Never>

    /// The root URL, `http://127.0.0.1:PORT/` (`localhost` and IPv6 hosts are written as given,
    /// IPv6 in brackets).
    public var baseURL: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "http://\(hostPart):\(port)/"
    }

    private init(port: Int, host: String, serviceGroup: ServiceGroup, task: Task<Void, Never>) {
        self.port = port
        self.host = host
        self.serviceGroup = serviceGroup
        self.task = task
    }

    deinit {
        task.cancel()
    }

    /// Stops the server and returns once it has stopped and the port is free again.
    ///
    /// The shutdown is graceful first: the listening socket closes, idle keep-alive connections
    /// close, and requests in flight may finish. Whatever still runs after
    /// ``gracefulShutdownLimit`` (a slow body stream, say) is cancelled. Calling `stop()` again
    /// returns at once.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        await task.value
    }

    /// How long ``stop()`` lets requests in flight finish before cancelling them, unless the
    /// server was started with another limit.
    public static let gracefulShutdownLimit: Duration = .seconds(2)

    /// Starts a Hummingbird application for `router` on `host:port` and returns once the socket is
    /// bound, with the port the kernel chose. Shared by ``FolderServer`` and the test-support
    /// torture server.
    package static func start(
        router: Router<BasicRequestContext>,
        host: String,
        port: Int,
        shutdownLimit: Duration = gracefulShutdownLimit
    ) async throws -> RunningServer {
        let logger = RunningServer.quietLogger
        let (events, continuation) = AsyncStream<Result<Int, any Error>>.makeStream()
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                continuation.yield(.success(channel.localAddress?.port ?? port))
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownLimit
        configuration.maximumCancellationDuration = shutdownLimit
        let serviceGroup = ServiceGroup(configuration: configuration)
        let task = Task {
            do {
                try await serviceGroup.run()
                continuation.yield(.failure(LoopbackServerError.stoppedBeforeListening))
            } catch {
                continuation.yield(.failure(error))
            }
            continuation.finish()
        }

        var iterator = events.makeAsyncIterator()
        let first = await iterator.next()
        switch first {
        case .success(let boundPort):
            return RunningServer(port: boundPort, host: host, serviceGroup: serviceGroup, task: task)
        case .failure(let error):
            await task.value
            throw LoopbackServerError.named(error, host: host, port: port)
        case nil:
            // The caller was cancelled while the server was starting.
            task.cancel()
            await task.value
            throw CancellationError()
        }
    }

    /// Hummingbird's logger for these servers: only critical messages, so a crawl's output stays
    /// clean.
    static var quietLogger: Logger {
        var logger = Logger(label: "SpotCheck.LoopbackServer")
        logger.logLevel = .critical
        return logger
    }
}

/// Why a loopback server could not start.
public enum LoopbackServerError: Error, Sendable, Equatable {
    /// The server's run loop ended before the socket was bound.
    case stoppedBeforeListening
    /// The folder to serve does not exist or is not a directory.
    case notADirectory(String)
    /// Another process listens on the port asked for.
    case portInUse(host: String, port: Int)
}

extension LoopbackServerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .stoppedBeforeListening: "the server stopped before it listened"
        case .notADirectory(let path): "\(path): not a folder"
        case .portInUse(let host, let port): "port \(port) on \(host) is in use"
        }
    }

    /// A bind failure in words: SwiftNIO's `IOError` says `bind(descriptor:ptr:bytes:)` and the
    /// errno; this module does not import NIO, so the errno is read from its text.
    static func named(_ error: any Error, host: String, port: Int) -> any Error {
        let text = "\(error) \(String(reflecting: error))"
        if port != 0, text.contains("errno: 98") || text.contains("Address already in use") {
            return LoopbackServerError.portInUse(host: host, port: port)
        }
        return error
    }
}
