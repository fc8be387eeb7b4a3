import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import XCTest

@testable import SocketIO

/// The WebSocket transport on NIO's embedded channels: what reaches the wire, byte for byte, and
/// when it is flushed.
final class EngineSocketHandlerTests: XCTestCase {
    private let loop = EmbeddedEventLoop()
    private lazy var flusher = LoopFlusher(eventLoop: loop)

    /// A socket on a new WebSocket session, with its open packet already read off the wire.
    private func openSocket(
        maxQueuedBytes: Int = 4 << 20, received: Received = Received(), closed: Reasons = Reasons(), flusher: LoopFlusher? = nil
    ) throws
        -> (EmbeddedChannel, EngineSession, FlushCounter)
    {
        var configuration = EngineConfiguration()
        configuration.maxQueuedBytes = maxQueuedBytes
        let session = EngineSession(
            id: "s\(UUID().uuidString.prefix(4))", transport: .websocket, handshake: EngineHandshake(), configuration: configuration
        ) {
            _, reason in closed.add(reason)
        }
        let counter = FlushCounter()
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(
            EngineSocketHandler(session: session, start: .open, flusher: flusher ?? self.flusher) { packet, _ in received.add(packet) }
        )
        loop.run()
        let open = try XCTUnwrap(try Self.frames(channel).first)
        XCTAssertTrue(open.hasPrefix("0{"), open)
        return (channel, session, counter)
    }

    /// The text frames written so far (server frames: FIN + opcode, 7/16/64-bit length, unmasked).
    private static func frames(_ channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            while buffer.readableBytes > 0 {
                let first = try XCTUnwrap(buffer.readInteger(as: UInt8.self))
                XCTAssertEqual(first, 0x81, "a final text frame")
                var length = Int(try XCTUnwrap(buffer.readInteger(as: UInt8.self)))
                XCTAssertLessThan(length, 128, "never masked")
                if length == 126 { length = Int(try XCTUnwrap(buffer.readInteger(as: UInt16.self))) }
                if length == 127 { length = Int(try XCTUnwrap(buffer.readInteger(as: UInt64.self))) }
                texts.append(try XCTUnwrap(buffer.readString(length: length)))
            }
        }
        return texts
    }

    private static func clientFrame(_ text: String, opcode: WebSocketOpcode = .text, masked: Bool = true) -> WebSocketFrame {
        var data = ByteBuffer(string: text)
        let key: WebSocketMaskingKey? = masked ? .random() : nil
        if let key { data.webSocketMask(key) }
        return WebSocketFrame(fin: true, opcode: opcode, maskKey: key, data: data)
    }

    func testABroadcastIsOneSharedFrameAndEachSocketIsFlushedOncePerTick() throws {
        let sockets = try (0..<3).map { _ in try openSocket() }
        let flushesBefore = sockets.map { $0.2.count }
        let writesBefore = sockets.map { $0.2.writes }
        let namespaceSockets = sockets.map { NamespaceSocket<Void>(id: "n", namespace: "/chats-r", caller: (), session: $0.1, auth: .object([:])) }
        NamespaceSocket.broadcast("chat", json: #"{"content":"안녕"}"#, to: namespaceSockets)
        NamespaceSocket.broadcast("chat", json: #"{"content":"two"}"#, to: namespaceSockets)
        sockets[0].1.send([.message("2/chats-r,[\"joined\"]")])
        loop.run()
        for (index, (channel, _, counter)) in sockets.enumerated() {
            var expected = [#"42/chats-r,["chat",{"content":"안녕"}]"#, #"42/chats-r,["chat",{"content":"two"}]"#]
            if index == 0 { expected.append(#"42/chats-r,["joined"]"#) }
            XCTAssertEqual(try Self.frames(channel), expected)
            XCTAssertEqual(counter.count - flushesBefore[index], 1, "frames of one tick leave in one flush")
            XCTAssertEqual(
                counter.writes - writesBefore[index], index == 0 ? 2 : 1, "the tick's broadcasts as one slice, then the socket's own frame")
        }
    }

    func testSocketsInDifferentRoomsGetTheirOwnBroadcastsInOrder() throws {
        let (a, b) = (try openSocket(), try openSocket())
        let writesBefore = (a.2.writes, b.2.writes)
        func on(_ session: EngineSession) -> NamespaceSocket<Void> {
            NamespaceSocket<Void>(id: "n", namespace: "/", caller: (), session: session, auth: .object([:]))
        }
        NamespaceSocket.broadcast("both", json: "1", to: [on(a.1), on(b.1)])
        NamespaceSocket.broadcast("b only", json: "2", to: [on(b.1)])
        a.1.send([.message("2[\"a's own\"]")])
        NamespaceSocket.broadcast("both", json: "3", to: [on(a.1), on(b.1)])
        loop.run()
        XCTAssertEqual(try Self.frames(a.0), [#"42["both",1]"#, #"42["a's own"]"#, #"42["both",3]"#])
        XCTAssertEqual(try Self.frames(b.0), [#"42["both",1]"#, #"42["b only",2]"#, #"42["both",3]"#])
        XCTAssertEqual(a.2.writes - writesBefore.0, 3, "a's own frame splits its broadcast bytes")
        XCTAssertEqual(b.2.writes - writesBefore.1, 1, "b got every broadcast of the tick: one slice")
        NamespaceSocket.broadcast("next tick", json: "4", to: [on(a.1), on(b.1)])
        loop.run()
        XCTAssertEqual(try Self.frames(a.0), [#"42["next tick",4]"#])
        XCTAssertEqual(try Self.frames(b.0), [#"42["next tick",4]"#])
    }

    func testUnderSteadyTrafficFlushesAreSpacedByTheWindow() throws {
        let windowed = LoopFlusher(eventLoop: loop, window: .milliseconds(20))
        let (channel, session, counter) = try openSocket(flusher: windowed)
        loop.advanceTime(by: .milliseconds(20))
        let flushes = counter.count
        session.send([.message("2[\"a\"]")])
        loop.run()
        XCTAssertEqual(try Self.frames(channel), [#"42["a"]"#], "right after a quiet spell: at once")
        session.send([.message("2[\"b\"]")])
        session.send([.message("2[\"c\"]")])
        loop.advanceTime(by: .milliseconds(19))
        XCTAssertEqual(try Self.frames(channel), [], "within the window: held")
        loop.advanceTime(by: .milliseconds(1))
        XCTAssertEqual(try Self.frames(channel), [#"42["b"]"#, #"42["c"]"#])
        XCTAssertEqual(counter.count - flushes, 2, "one flush for what piled up")
        loop.advanceTime(by: .milliseconds(20))
        session.send([.message("2[\"d\"]")])
        loop.run()
        XCTAssertEqual(try Self.frames(channel), [#"42["d"]"#], "quiet again: at once")
    }

    func testLongFramesCarryTheirLengthInTwoOrEightBytes() throws {
        let (channel, session, _) = try openSocket()
        let medium = String(repeating: "m", count: 300)
        let long = String(repeating: "l", count: 70_000)
        session.send([.message(medium), .message(long)])
        loop.run()
        XCTAssertEqual(try Self.frames(channel), ["4" + medium, "4" + long])
    }

    func testMessagesReachTheLayerAboveInOrderAndPongsAnswerThePing() throws {
        let received = Received(expecting: 50)
        let (channel, session, _) = try openSocket(received: received)
        XCTAssertTrue(session.pingSent())
        session.send([EnginePacket(.ping)])
        loop.run()
        XCTAssertEqual(try Self.frames(channel), ["2"])
        try channel.writeInbound(Self.clientFrame("3"))
        XCTAssertFalse(session.timedOut())
        for index in 0..<50 { try channel.writeInbound(Self.clientFrame("42[\"e\",\(index)]")) }
        wait(for: [received.done], timeout: 10)
        XCTAssertEqual(received.all, (0..<50).map { EnginePacket.message("2[\"e\",\($0)]") })
    }

    func testUnmaskedClientFramesEndTheSocketWithAProtocolError() throws {
        let closed = Reasons()
        let (channel, session, _) = try openSocket(closed: closed)
        try channel.writeInbound(Self.clientFrame("42[\"e\"]", masked: false))
        let close = try XCTUnwrap(try channel.readOutbound(as: ByteBuffer.self))
        XCTAssertEqual(Array(close.readableBytesView), [0x88, 0x02, 0x03, 0xEA], "close 1002")
        XCTAssertFalse(channel.isActive)
        XCTAssertTrue(session.isClosed)
        XCTAssertEqual(closed.all, ["transport close"])
    }

    func testAClientThatStopsReadingIsDisconnected() throws {
        let closed = Reasons()
        let (channel, session, _) = try openSocket(closed: closed)
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        XCTAssertTrue(session.isClosed)
        XCTAssertEqual(closed.all, ["outbound buffer full (slow consumer)"])
        XCTAssertFalse(session.send([.message("2[\"late\"]")]))
    }

    func testAPollingSessionMovesToTheSocketAfterProbeAndUpgrade() throws {
        let session = EngineSession(id: "p", transport: .polling, handshake: EngineHandshake(), configuration: EngineConfiguration()) { _, _ in }
        XCTAssertTrue(session.beginUpgrade())
        let channel = EmbeddedChannel(loop: loop)
        try channel.pipeline.syncOperations.addHandler(EngineSocketHandler(session: session, start: .upgrade, flusher: flusher) { _, _ in })
        session.send([.message("2[\"while polling\"]")])
        try channel.writeInbound(Self.clientFrame("2probe"))
        loop.run()
        XCTAssertEqual(try Self.frames(channel), ["3probe"])
        XCTAssertEqual(session.transport, .polling, "still polling until the client sends 5")
        try channel.writeInbound(Self.clientFrame("5"))
        session.send([.message("2[\"after\"]")])
        loop.run()
        XCTAssertEqual(try Self.frames(channel), [#"42["while polling"]"#, #"42["after"]"#])
        XCTAssertEqual(session.transport, .websocket)
    }
}

/// Counts flushes and writes on their way to the wire.
final class FlushCounter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    private(set) var count = 0
    private(set) var writes = 0

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writes += 1
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        count += 1
        context.flush()
    }
}

/// What the layer above was given; `done` is fulfilled once `expecting` packets came.
final class Received: Sendable {
    private let storage = Mutex<[EnginePacket]>([])
    private let expecting: Int
    let done = XCTestExpectation(description: "packets received")

    init(expecting: Int = 0) {
        self.expecting = expecting
    }

    func add(_ packet: EnginePacket) {
        if storage.withLock({
            $0.append(packet); return $0.count
        }) == expecting {
            done.fulfill()
        }
    }

    var all: [EnginePacket] { storage.withLock { $0 } }
}
