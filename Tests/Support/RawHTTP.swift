import NIOCore
import NIOPosix
import Synchronization

/// Bytes over a plain TCP connection, for what HTTP clients do not do (pipelining): writes the
/// request bytes at once and returns everything the server sends until it closes.
package enum RawHTTP {
    package static func exchange(port: Int, _ requests: String) async throws -> String {
        try await exchange(port: port, pieces: [ByteBuffer(string: requests)])
    }

    /// The same with the bytes written piece by piece, each flushed before the next.
    package static func exchange(port: Int, pieces: [ByteBuffer]) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            for piece in pieces { try await outbound.write(piece) }
            var received = ByteBuffer()
            for try await var part in inbound {
                received.writeBuffer(&part)
                if received.readableBytes > 16 << 20 { break }
            }
            return String(buffer: received)
        }
    }

    /// Sends `requests` and collects what comes back on a connection left open: `received` is
    /// called once `answers` status lines have arrived; returns everything once the server closes
    /// the connection, or what came when it has not within `timeout` (a bound, so that a server
    /// that never closes fails the test instead of hanging it) with `ended` false.
    package static func exchangeUntilClosed(
        port: Int, _ requests: String, answers: Int, received: @escaping @Sendable () -> Void, timeout: Duration = .seconds(20)
    ) async throws -> (text: String, ended: Bool) {
        try await exchangeUntilClosed(port: port, bytes: ByteBuffer(string: requests), answers: answers, received: received, timeout: timeout)
    }

    /// `exchangeUntilClosed` with bytes that are not all text (a WebSocket frame after a request);
    /// with `until`, it also ends (`ended` true) as soon as what arrived satisfies it.
    package static func exchangeUntilClosed(
        port: Int, bytes requests: ByteBuffer, answers: Int, received: @escaping @Sendable () -> Void = {},
        until: @escaping @Sendable (String) -> Bool = { _ in false }, timeout: Duration = .seconds(20)
    ) async throws -> (text: String, ended: Bool) {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let text = Collected()
        let ended = try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(requests)
            return try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    var signalled = false
                    for try await part in inbound {
                        let sofar = text.value.withLock {
                            $0 += String(buffer: part); return $0
                        }
                        if !signalled, statuses(sofar).count >= answers {
                            signalled = true
                            received()
                        }
                        if until(sofar) { return true }
                    }
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return false
                }
                let first = try await group.next() ?? false
                group.cancelAll()
                return first
            }
        }
        return (text.value.withLock { $0 }, ended)
    }

    /// What has arrived so far, readable after the reading task is cancelled.
    private final class Collected: Sendable {
        let value = Mutex("")
    }

    /// The status codes of the answers, in the order they came (bodies must not contain "HTTP/1.1 ").
    package static func statuses(_ answers: String) -> [Int] {
        answers.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }
}
