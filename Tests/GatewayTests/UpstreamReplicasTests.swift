import Hummingbird
import HummingbirdTesting
import NIOCore
import ServiceKit
import Simulators
import TestSupport
import XCTest

@testable import Gateway

/// Several chat-svc replicas behind one gateway (`CHAT_SVC_URL=a,b`): turns, Engine.IO polling
/// sessions kept on their replica, a replica gone taken out and put back when it answers again.
final class UpstreamReplicasTests: XCTestCase {
    /// A stand-in replica named `name`: answers its name, opens Engine.IO sessions named after
    /// itself and refuses others' as chat-svc does.
    static func replica(_ name: String, port: Int = 0) async throws -> LiveServer {
        let router = Router()
        router.get("/v1/chats") { _, _ in name }
        router.get("/socket.io/") { request, _ -> Response in
            guard let sid = request.uri.queryParameters["sid"].map(String.init) else {
                let open =
                    "0{\"sid\":\"\(name)-\(Int.random(in: 0..<1_000_000))\",\"upgrades\":[\"websocket\"],\"pingInterval\":25000,\"pingTimeout\":20000}"
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: open)))
            }
            guard sid.hasPrefix(name + "-") else {
                return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: #"{"code":1,"message":"Session ID unknown"}"#)))
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "6 from " + name)))
        }
        return try await LiveServer.start(router, port: port)
    }

    func testTurnsPinnedPollingSessionsAndAReplicaTakenOutAndPutBack() async throws {
        let a = try await Self.replica("a"), b = try await Self.replica("b")
        let headers: HTTPFields = [.sesacKey: "key-lslp"]
        try await GatewayTests.makeLiveApp(.chat, at: a.url + "," + b.url).test(.live) { client in
            func get(_ uri: String) async throws -> (HTTPResponse.Status, String) {
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                return (response.status, String(buffer: response.body))
            }
            var answered: [String] = []
            for _ in 0..<6 { answered.append(try await get("/v1/chats").1) }
            XCTAssertEqual(answered.filter { $0 == "a" }.count, 3, "\(answered)")
            XCTAssertEqual(answered.filter { $0 == "b" }.count, 3, "\(answered)")

            // Each session's polls go to the replica that opened it, whichever is next in turn.
            for _ in 0..<6 {
                let (status, open) = try await get("/socket.io/?EIO=4&transport=polling")
                XCTAssertEqual(status, .ok)
                let sid = try XCTUnwrap(UpstreamReplicas.handshakeSession(ByteBuffer(string: open)))
                for _ in 0..<3 {
                    let (pollStatus, poll) = try await get("/socket.io/?EIO=4&transport=polling&sid=\(sid)")
                    XCTAssertEqual(pollStatus, .ok, poll)
                    XCTAssertEqual(poll, "6 from " + sid.prefix(1))
                }
            }
            // A session this gateway did not see open is found where it lives; one nowhere is refused.
            let found = try await get("/socket.io/?EIO=4&transport=polling&sid=b-opened-elsewhere")
            XCTAssertEqual(found.1, "6 from b")
            let nowhere = try await get("/socket.io/?EIO=4&transport=polling&sid=c-1")
            XCTAssertEqual(nowhere.0, .badRequest)

            // Replica a goes away: every request is answered by b.
            await a.stop()
            for _ in 0..<6 {
                let (status, name) = try await get("/v1/chats")
                XCTAssertEqual(status, .ok)
                XCTAssertEqual(name, "b")
            }
            // Back on its address: a gets its turns again once its pause is over.
            let back = try await Self.replica("a", port: a.port)
            var sawA = false
            let deadline = ContinuousClock.now + .seconds(15)
            while !sawA, ContinuousClock.now < deadline {
                let (status, name) = try await get("/v1/chats")
                XCTAssertEqual(status, .ok)
                sawA = name == "a"
                if !sawA { try await Task.sleep(for: .milliseconds(50)) }
            }
            XCTAssertTrue(sawA, "replica a was never put back")
            await back.stop()
        }
        await b.stop()
    }
}
