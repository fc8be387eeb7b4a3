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
        let router = Router()
        router.post("/v1/users/join") { request, _ -> Response in
            // As a service refuses a body over its limit: after reading that much of it, and a
            // moment later, so the gateway has passed on all the client sent by then.
            var seen = 0
            for try await part in request.body {
                seen += part.readableBytes
                if seen > 100 << 10 { break }
            }
            try await Task.sleep(for: .milliseconds(200))
            return Response(status: .contentTooLarge)
        }
        let auth = try await LiveServer.start(router)
        let total = 1 << 20
        let sentFirst = 120 << 10
        try await GatewayTests.makeLiveApp(.auth, at: auth.url).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
                }
            try await channel.executeThenClose { inbound, outbound in
                var head = "POST /v1/users/join HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n"
                head += "Content-Type: application/json\r\nContent-Length: \(total)\r\n\r\n"
                var first = ByteBuffer(string: head)
                first.writeRepeatingByte(UInt8(ascii: " "), count: sentFirst)
                try await outbound.write(first)
                // The client waits for the answer with most of its body unsent: the gateway's pump
                // is then waiting for more of it.
                var answers = inbound.makeAsyncIterator()
                var received = ""
                while !received.contains("\r\n\r\n") {
                    guard let part = try await answers.next() else { return XCTFail("closed before the answer: \(received)") }
                    received += String(buffer: part)
                }
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
        let router = Router()
        router.post("/v1/users/join") { request, _ -> Response in
            var seen = 0
            for try await part in request.body {
                seen += part.readableBytes
                if seen > 100 << 10 { break }
            }
            return Response(status: .contentTooLarge)
        }
        let auth = try await LiveServer.start(router)
        try await GatewayTests.makeLiveApp(.auth, at: auth.url, idleTimeoutSeconds: 1).test(.live) { client in
            let port = try XCTUnwrap(client.port)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
                }
            try await channel.executeThenClose { inbound, outbound in
                var first = ByteBuffer(
                    string: "POST /v1/users/join HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\nContent-Length: \(1 << 30)\r\n\r\n")
                first.writeRepeatingByte(UInt8(ascii: " "), count: 120 << 10)
                try await outbound.write(first)
                var answers = inbound.makeAsyncIterator()
                var received = ""
                while !received.contains("\r\n\r\n") {
                    guard let part = try await answers.next() else { return XCTFail("closed before the answer: \(received)") }
                    received += String(buffer: part)
                }
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
}
