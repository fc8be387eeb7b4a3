import NIOEmbedded
import Synchronization
import XCTest

@testable import SocketIO

final class EngineSessionTests: XCTestCase {
    private func session(maxQueuedBytes: Int = 1_000, closed: @escaping @Sendable (String) -> Void = { _ in }) -> EngineSession {
        var configuration = EngineConfiguration()
        configuration.maxQueuedBytes = maxQueuedBytes
        return EngineSession(id: "s", transport: .polling, handshake: EngineHandshake(), configuration: configuration) { _, reason in closed(reason) }
    }

    func testASlowConsumerIsDisconnectedInsteadOfBufferingWithoutBound() async {
        let reasons = Reasons()
        let session = session { reasons.add($0) }
        let packet = EnginePacket.message(String(repeating: "x", count: 99))
        for _ in 0..<10 { XCTAssertTrue(session.send([packet])) }
        XCTAssertFalse(session.send([packet]), "the 11th 100-byte packet exceeds the 1,000-byte bound")
        XCTAssertTrue(session.isClosed)
        XCTAssertEqual(reasons.all, ["outbound buffer full (slow consumer)"])
        let taken = await session.take()
        XCTAssertNil(taken, "a closed session has nothing more to write")
    }

    func testTakeWaitsForPacketsAndAnUpgradeReleasesAPendingPoll() async {
        let session = session()
        async let first = session.take()
        session.send([.message("2[\"a\"]")])
        let taken = await first
        XCTAssertEqual(taken, [.message("2[\"a\"]")])

        XCTAssertTrue(session.beginPoll())
        XCTAssertFalse(session.beginPoll(), "one GET at a time")
        async let pending = session.take()
        XCTAssertTrue(session.beginUpgrade())
        XCTAssertFalse(session.beginUpgrade())
        session.releasePendingPoll()
        let released = await pending
        XCTAssertEqual(released, [EnginePacket(.noop)])
        session.endPoll()
        session.send([.message("2[\"b\"]")])
        let socket = EngineSocketHandler(session: session, start: .upgrade, flusher: LoopFlusher(eventLoop: EmbeddedEventLoop())) { _, _ in }
        XCTAssertEqual(session.completeUpgrade(to: socket), [.message("2[\"b\"]")], "what no GET took goes to the socket first")
        XCTAssertEqual(session.transport, .websocket)
        XCTAssertFalse(session.acceptsPolling)
        XCTAssertTrue(session.socket === socket)
    }

    func testOpenPacketOffersTheUpgradeOnlyOnPolling() {
        XCTAssertEqual(session().openPacket.webSocketText?.contains(#""upgrades":["websocket"]"#), true)
        let websocket = EngineSession(id: "w", transport: .websocket, handshake: EngineHandshake(), configuration: EngineConfiguration()) { _, _ in }
        XCTAssertEqual(websocket.openPacket.webSocketText?.contains(#""upgrades":[]"#), true)
        XCTAssertEqual(websocket.openPacket.webSocketText?.contains(#""pingInterval":25000"#), true)
    }
}

final class Reasons: Sendable {
    private let storage = Mutex<[String]>([])
    func add(_ reason: String) { storage.withLock { $0.append(reason) } }
    var all: [String] { storage.withLock { $0 } }
}
