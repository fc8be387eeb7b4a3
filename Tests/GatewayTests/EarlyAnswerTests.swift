import Hummingbird
import NIOCore
import NIOPosix
import TestSupport
import XCTest

@testable import Gateway

/// A service may answer an upload before it has read the body (413 on its Content-Length). The
/// gateway then passes the answer on while the client is still sending, and the rest of the body
/// must be read by one reader at a time: the upstream pump's read still waiting and Hummingbird's
/// draining of the rest at once stopped the gateway (NIO allows one reader of a request stream).
final class EarlyAnswerTests: XCTestCase {
    func testAnUploadAnsweredBeforeItsBodyEndsIsDrainedAndTheConnectionServesOn() async throws {
        // A moment after reading, so the gateway has passed on all the client sent by then.
        let auth = try await Self.refusingUploads(after: .milliseconds(200))
        let total = 1 << 20
        let sentFirst = 120 << 10
        try await GatewayTests.makeLiveApp(.auth, at: auth.url).test(.live) { client in
            try await Self.connect(to: try XCTUnwrap(client.port)).executeThenClose { inbound, outbound in
                // The client waits for the answer with most of its body unsent: the gateway's pump
                // is then waiting for more of it.
                var answers = inbound.makeAsyncIterator()
                let received = try await Self.answer(toUploadOf: total, sending: sentFirst, outbound, &answers)
                XCTAssertTrue(received.hasPrefix("HTTP/1.1 413"), received)
                try await outbound.write(ByteBuffer(repeating: UInt8(ascii: " "), count: total - sentFirst))
                // The same connection takes the next request once the rest has been read.
                try await outbound.write(ByteBuffer(string: "GET /metrics HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n"))
                var rest = ""
                while let part = try await answers.next() { rest += String(buffer: part) }
                XCTAssertTrue(
                    rest.contains("HTTP/1.1 200"), "the connection serves the next request: \((received + rest).prefix(400))")
            }
        }
        await auth.stop()
    }

    /// A client that keeps sending the rest of a refused upload, slowly, for ever: the gateway
    /// reads it for the idle timeout at most (nginx's `lingering_time`), then closes.
    func testABodyStillArrivingLongAfterItsAnswerEndsTheConnection() async throws {
        let auth = try await Self.refusingUploads(after: .zero)
        try await GatewayTests.makeLiveApp(.auth, at: auth.url, idleTimeoutSeconds: 1).test(.live) { client in
            let channel = try await Self.connect(to: try XCTUnwrap(client.port))
            try await channel.executeThenClose { inbound, outbound in
                var answers = inbound.makeAsyncIterator()
                let received = try await Self.answer(toUploadOf: 1 << 30, sending: 120 << 10, outbound, &answers)
                XCTAssertTrue(received.hasPrefix("HTTP/1.1 413"), received)
                // A trickle, each part well within the idle timeout of the one before.
                let answered = ContinuousClock.now
                let trickle = Task {
                    while !Task.isCancelled {
                        try await outbound.write(ByteBuffer(repeating: UInt8(ascii: " "), count: 1024))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                // Should the gateway never close, the test does, and fails below.
                let giveUp = Task { [raw = channel.channel] in
                    try await Task.sleep(for: .seconds(5))
                    try await raw.close()
                }
                defer {
                    trickle.cancel()
                    giveUp.cancel()
                }
                while (try? await answers.next()) != nil {}
                let lingered = ContinuousClock.now - answered
                XCTAssertLessThan(lingered, .milliseconds(4500), "closed after the idle timeout, not when the client stops")
                XCTAssertGreaterThanOrEqual(lingered, .milliseconds(900), "the client had the idle timeout to finish")
            }
        }
        await auth.stop()
    }

    struct ClosedBeforeAnswer: Error {
        var received: String
    }

    /// auth-svc as it refuses a body over its limit: after reading that much of it (100 KB), 413.
    private static func refusingUploads(after delay: Duration) async throws -> LiveServer {
        let router = Router()
        router.post("/v1/users/join") { request, _ -> Response in
            var seen = 0
            for try await part in request.body {
                seen += part.readableBytes
                if seen > 100 << 10 { break }
            }
            try await Task.sleep(for: delay)
            return Response(status: .contentTooLarge)
        }
        return try await LiveServer.start(router)
    }

    private static func connect(to port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
    }

    /// Sends the head of an upload of `total` bytes and the first `sent` of them; the answer's head.
    private static func answer(
        toUploadOf total: Int, sending sent: Int, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        _ answers: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    ) async throws -> String {
        var first = ByteBuffer(
            string:
                "POST /v1/users/join HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nContent-Type: application/json\r\nContent-Length: \(total)\r\n\r\n"
        )
        first.writeRepeatingByte(UInt8(ascii: " "), count: sent)
        try await outbound.write(first)
        var received = ""
        while !received.contains("\r\n\r\n") {
            guard let part = try await answers.next() else { throw ClosedBeforeAnswer(received: received) }
            received += String(buffer: part)
        }
        return received
    }
}
