import XCTest

@testable import SocketIO

/// Encodings from the Engine.IO v4 and Socket.IO v5 protocol documents.
final class ProtocolCodecTests: XCTestCase {
    func testEnginePacketsOverWebSocketAndPolling() throws {
        XCTAssertEqual(EnginePacket(.ping, .text("probe")).webSocketText, "2probe")
        XCTAssertEqual(try EnginePacket.fromWebSocketText("3probe"), EnginePacket(.pong, .text("probe")))
        XCTAssertEqual(try EnginePacket.fromWebSocketText("5"), EnginePacket(.upgrade))
        XCTAssertThrowsError(try EnginePacket.fromWebSocketText("9x"))
        XCTAssertThrowsError(try EnginePacket.fromWebSocketText(""))

        let payload = "42[\"hello\"]\u{1e}42[\"world\"]"
        XCTAssertEqual(try EnginePacket.decodePolling(payload), [.message("2[\"hello\"]"), .message("2[\"world\"]")])
        XCTAssertEqual(EnginePacket.encodePolling([.message("2[\"hello\"]"), .message("2[\"world\"]")]), payload)
        XCTAssertEqual(EnginePacket.encodePolling([.binary([1, 2, 3, 4])]), "bAQIDBA==")
        XCTAssertEqual(try EnginePacket.decodePolling("4hello\u{1e}bAQIDBA=="), [.message("hello"), .binary([1, 2, 3, 4])])
        XCTAssertThrowsError(try EnginePacket.decodePolling("b!!!"))
    }

    func testSocketPacketEncodings() {
        let cases: [(SocketPacket, String)] = [
            (SocketPacket(.connect), "0"),
            (SocketPacket(.connect, data: .object(["sid": .string("wZX3oN0bSVIhsaknAAAI")])), "0{\"sid\":\"wZX3oN0bSVIhsaknAAAI\"}"),
            (SocketPacket(.connect, namespace: "/admin"), "0/admin,"),
            (SocketPacket(.connectError, data: .object(["message": .string("Not authorized")])), "4{\"message\":\"Not authorized\"}"),
            (SocketPacket(.event, data: .array([.string("foo")])), "2[\"foo\"]"),
            (SocketPacket(.event, namespace: "/admin", data: .array([.string("bar")])), "2/admin,[\"bar\"]"),
            (SocketPacket(.event, ackID: 12, data: .array([.string("foo")])), "212[\"foo\"]"),
            (SocketPacket(.ack, ackID: 12, data: .array([])), "312[]"),
            (SocketPacket(.ack, namespace: "/admin", ackID: 13, data: .array([.string("bar")])), "3/admin,13[\"bar\"]"),
            (SocketPacket(.disconnect, namespace: "/admin"), "1/admin,"),
            (SocketPacket(.event, data: .array([.string("n"), .number(1), .number(1.5), .bool(true), .null])), "2[\"n\",1,1.5,true,null]"),
        ]
        for (packet, text) in cases {
            XCTAssertEqual(packet.encoded().text, text)
            XCTAssertEqual(try SocketPacket.decode(text).packet, packet, text)
        }
    }

    func testBinaryPackets() throws {
        let placeholder = JSONValue.object(["_placeholder": .bool(true), "num": .number(0)])
        let packet = SocketPacket(.binaryEvent, namespace: "/admin", ackID: 14, data: .array([.string("baz"), placeholder]), attachments: [[1, 2]])
        XCTAssertEqual(packet.encoded().text, "51-/admin,14[\"baz\",{\"_placeholder\":true,\"num\":0}]")
        let (decoded, expected) = try SocketPacket.decode("52-[\"baz\",{\"_placeholder\":true,\"num\":0},{\"_placeholder\":true,\"num\":1}]")
        XCTAssertEqual(expected, 2)
        var assembly = BinaryAssembly(packet: decoded, expected: expected)
        assembly.add([1, 2])
        XCTAssertFalse(assembly.isComplete)
        assembly.add([3, 4])
        XCTAssertTrue(assembly.isComplete)
        XCTAssertEqual(assembly.packet.attachments, [[1, 2], [3, 4]])
    }

    func testInvalidSocketPackets() {
        for text in ["", "9", "2", "2{}", "2[]", "2[1]", "3[\"x\"]", "0[1]", "1{}", "5x-[\"a\"]", "2/admin,[\"a\"", "2[\"a\"]trailing"] {
            XCTAssertThrowsError(try SocketPacket.decode(text), text)
        }
    }
}
