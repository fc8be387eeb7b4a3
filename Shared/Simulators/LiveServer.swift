import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// A Hummingbird router served on a free loopback port: the provider simulators (PortOne, Apple,
/// Kakao, …) our real HTTP clients talk to in tests, and `glint --simulate-portone` in development.
package final class LiveServer: Sendable {
    package let port: Int
    private let task: Task<Void, any Error>

    package var url: String { "http://127.0.0.1:\(port)" }

    /// On `port`, or a free one when 0.
    package static func start(_ router: Router<BasicRequestContext>, server: HTTPServerBuilder = .http1(), port: Int = 0) async throws -> LiveServer {
        var logger = Logger(label: "simulator")
        logger.logLevel = .warning
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw CancellationError()
        }
        return LiveServer(port: port, task: task)
    }

    private init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }

    package func stop() async {
        task.cancel()
        _ = await task.result
    }
}
