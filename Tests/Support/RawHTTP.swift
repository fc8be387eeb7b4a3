import NIOCore
import NIOPosix

/// Bytes over a plain TCP connection, for what HTTP clients do not do (pipelining): writes the
/// request bytes at once and returns everything the server sends until it closes.
public enum RawHTTP {
    public static func exchange(port: Int, _ requests: String) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: requests))
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
    /// the connection, or nil when it has not within `timeout` (a bound, so that a server that
    /// never closes fails the test instead of hanging it).
    public static func exchangeUntilClosed(
        port: Int, _ requests: String, answers: Int, received: @escaping @Sendable () -> Void, timeout: Duration = .seconds(20)
    ) async throws -> String? {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: requests))
            return try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask {
                    var text = ""
                    var signalled = false
                    for try await part in inbound {
                        text += String(buffer: part)
                        if !signalled, statuses(text).count >= answers {
                            signalled = true
                            received()
                        }
                    }
                    return text
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
    }

    /// The status codes of the answers, in the order they came (bodies must not contain "HTTP/1.1 ").
    public static func statuses(_ answers: String) -> [Int] {
        answers.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }
}
