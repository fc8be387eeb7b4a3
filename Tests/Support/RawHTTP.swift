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

    /// The status codes of the answers, in the order they came (bodies must not contain "HTTP/1.1 ").
    public static func statuses(_ answers: String) -> [Int] {
        answers.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }
}
