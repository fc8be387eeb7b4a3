import Contracts
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import Gateway

/// `/socket.io/` WebSockets with a cached key are spliced to a real WebSocket server standing in
/// for chat-svc: the handshake is the server's, bytes pass both ways, refusals come back as sent.
final class SocketSpliceTests: XCTestCase {
    /// Upgrades only calls that carry the internal headers and a token other than "bad"; says
    /// "hello" first, then echoes.
    static func chatStandIn() async throws -> LiveServer {
        let server = HTTPServerBuilder.http1WebSocketUpgrade(configuration: .init(ws: .init(maxFrameSize: 1 << 20))) { head, _, _ in
            guard head.headerFields[.init(InternalHeader.secret)!] == TestEnvironment.internalSecret,
                head.headerFields[.init(InternalHeader.appID)!] == "app-lslp",
                head.headerFields[.authorization] != "bad"
            else { return .dontUpgrade }
            return .upgrade([:]) { inbound, outbound, _ in
                try await outbound.write(.text("hello"))
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    switch message {
                    case .text(let text): try await outbound.write(.text("echo:" + text))
                    case .binary(let bytes): try await outbound.write(.binary(bytes))
                    }
                }
            }
        }
        return try await LiveServer.start(Router(), server: server)
    }

    /// A live gateway whose chat-svc is at `chatURL`, with the test key already resolved (its
    /// first use goes through the router; sockets then splice): `body` gets the gateway's port.
    static func withGateway(
        chatURL: String, keyResolved: Bool = true, _ body: @escaping @Sendable (Int, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await GatewayTests.makeLiveApp(.chat, at: chatURL).test(.live) { client in
            if keyResolved { _ = try await client.execute(uri: "/v1/chats", method: .get, headers: [.sesacKey: "key-lslp"]) }
            try await body(try XCTUnwrap(client.port), client)
        }
    }

    static func upgradeRequest(_ query: String = "", key: String = "key-lslp", authorization: String = "token") -> String {
        "GET /socket.io/?EIO=4&transport=websocket\(query) HTTP/1.1\r\nHost: gateway\r\nSeSACKey: \(key)\r\nAuthorization: \(authorization)\r\n"
            + "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    }

    func testMessagesPassBothWaysThroughTheSplice() async throws {
        try await assertEchoThroughTheSplice(keyResolved: true)
    }

    /// The socket is the key's first use: resolved while the upgrade waits, then spliced.
    func testAKeyNotYetResolvedIsResolvedThenSpliced() async throws {
        try await assertEchoThroughTheSplice(keyResolved: false)
    }

    func testAWrongOrEmptyKeyIsRefusedInTheAppsDialect() async throws {
        let chat = try await Self.chatStandIn()
        try await Self.withGateway(chatURL: chat.url, keyResolved: false) { port, _ in
            for key in ["nope", ""] {
                let (text, closed) = try await RawHTTP.exchangeUntilClosed(port: port, Self.upgradeRequest(key: key), answers: 1, received: {})
                XCTAssertTrue(closed, text)
                XCTAssertEqual(RawHTTP.statuses(text), [420], text)
                XCTAssertTrue(text.contains(#"{"message":"unknown app key"}"#), text)
            }
        }
        await chat.stop()
    }

    private func assertEchoThroughTheSplice(keyResolved: Bool) async throws {
        let chat = try await Self.chatStandIn()
        try await Self.withGateway(chatURL: chat.url, keyResolved: keyResolved) { port, client in
            let received = Mutex<[String]>([])
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/socket.io/?EIO=4&transport=websocket",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: [.sesacKey: "key-lslp", .authorization: "token"]),
                logger: TestEnvironment.logger
            ) { inbound, outbound, _ in
                var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                for step in 0..<3 {
                    guard let message = try await iterator.next() else { break }
                    switch message {
                    case .text(let text): received.withLock { $0.append(text) }
                    case .binary(let bytes): received.withLock { $0.append("binary:\(bytes.readableBytes)") }
                    }
                    if step == 0 { try await outbound.write(.text("ping")) }
                    if step == 1 { try await outbound.write(.binary(ByteBuffer(repeating: 7, count: 100_000))) }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            XCTAssertEqual(received.withLock { $0 }, ["hello", "echo:ping", "binary:100000"])
            let metrics = try await client.execute(uri: "/metrics", method: .get).body.text
            XCTAssertTrue(metrics.contains(#"http_requests_total{method="GET",route="/socket.io/",status="101"} 1"#), "spliced:\n\(metrics)")
        }
        await chat.stop()
    }

    func testAnUpgradeFollowsADirectRequestOnOneConnectionAndBytesSentEarlyArrive() async throws {
        let chat = try await Self.chatStandIn()
        try await Self.withGateway(chatURL: chat.url) { port, _ in
            // A masked text frame right behind the upgrade request, sent before any answer: held
            // until the splice, then echoed by the server after its hello.
            var bytes = ByteBuffer(string: "GET /v1/chats HTTP/1.1\r\nHost: gateway\r\nSeSACKey: key-lslp\r\n\r\n" + Self.upgradeRequest())
            bytes.writeBytes([0x81, 0x82, 0, 0, 0, 0] + Array("hi".utf8))
            let (text, echoed) = try await RawHTTP.exchangeUntilClosed(port: port, bytes: bytes, answers: 2, until: { $0.contains("echo:hi") })
            XCTAssertTrue(echoed, text)
            // chat-svc's stand-in has no /v1/chats: its 404, then its 101 with the key's answer, then "hello" as a frame.
            XCTAssertEqual(RawHTTP.statuses(text), [404, 101], text)
            XCTAssertTrue(text.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), text)
            // The text frame's two header bytes are not UTF-8; its payload follows the 101.
            let switched = try XCTUnwrap(text.range(of: "101 Switching Protocols"), text)
            XCTAssertNotNil(text.range(of: "\u{05}hello", range: switched.upperBound..<text.endIndex), text)
        }
        await chat.stop()
    }

    func testARefusalComesBackAsChatSvcSentIt() async throws {
        let chat = try await Self.chatStandIn()
        try await Self.withGateway(chatURL: chat.url) { port, _ in
            let (text, closed) = try await RawHTTP.exchangeUntilClosed(
                port: port, Self.upgradeRequest(authorization: "bad"), answers: 1, received: {})
            XCTAssertTrue(closed, text)
            XCTAssertEqual(RawHTTP.statuses(text), [400], text)
        }
        await chat.stop()
    }

    func testChatSvcDownIs503InTheAppsDialect() async throws {
        let unused = try await Self.chatStandIn()
        let url = unused.url
        await unused.stop()
        try await Self.withGateway(chatURL: url) { port, _ in
            let (text, closed) = try await RawHTTP.exchangeUntilClosed(port: port, Self.upgradeRequest(), answers: 1, received: {})
            XCTAssertTrue(closed, text)
            XCTAssertEqual(RawHTTP.statuses(text), [503], text)
            XCTAssertTrue(text.contains(#"{"message":"chat-svc unavailable"}"#), text)
        }
    }
}
