import Contracts
import Foundation
import NIOCore
import PostgresNIO
import PostgresStorage
import ServiceKit
import Storage
import TestSupport
import XCTest

/// Two real chat-svc replicas on one PostgreSQL database behind one gateway
/// (`CHAT_SVC_URL=a,b`, `CHAT_DATABASE_URL`): sockets on either receive every message stored by
/// either, Engine.IO polling sessions survive the gateway's balancing, and nothing is lost while
/// a replica is killed (SIGKILL) and started again in the middle of a stream.
final class ChatReplicasTests: XCTestCase {
    struct Unstored: Error {
        var text: String
    }

    func testTwoReplicasOnePostgreSQLBehindOneGateway() async throws {
        let python = try ChatThroughGatewayTests.python()
        let (pool, databaseURL) = try await TestPostgres.freshDatabase()
        pool.close()
        let ports = [try FreePort.pick(), try FreePort.pick()]
        let urls = ports.map { "http://127.0.0.1:\($0)" }
        let suite = try await AuthAndGateway.start([ServiceName.chat.urlVariable: urls.joined(separator: ","), "CHAT_DATABASE_URL": databaseURL])
        var replicas = try ports.map { port in
            try RunningProcess("chat-svc", environment: suite.environment.merging(["PORT": "\(port)"]) { $1 })
        }
        var pythons: [RunningProcess] = []
        do {
            for replica in replicas { _ = try await replica.line(containing: "listening on") }
            func join(_ nick: String) async throws -> AuthAnswer {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
                XCTAssertEqual(answer.status, 200, answer.body.text)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
            }
            let alice = try await join("alice"), bob = try await join("bob")
            let opened = try await suite.call(.POST, "/v1/chats", token: alice.accessToken, json: #"{"opponent_id":"\#(bob.userID)"}"#)
            let room = try JSON.string(try JSON.object(opened.body), "room_id")
            let namespace = "/chats-" + room
            let key = AuthAndGateway.appKey

            /// Posts through the gateway until one is stored (a replica killed under a request
            /// answers 502; the same `client_id` makes the retry safe).
            func post(_ text: String) async throws -> String {
                for _ in 0..<50 {
                    let body = String(buffer: JSONCoding.encode(SendChatRequest(content: text, clientID: "c-" + text)))
                    if let answer = try? await suite.call(.POST, "/v1/chats/\(room)", token: bob.accessToken, json: body), answer.status == 200 {
                        return try JSON.string(try JSON.object(answer.body), "chat_id")
                    }
                }
                throw Unstored(text: text)
            }

            // 1. Through the gateway: sockets land on both replicas (WebSocket and polling only,
            //    python-socketio and ours), messages are stored by both; every socket gets every one.
            let first = 10
            let pythonPolling = try RunningProcess(
                url: python, name: "python polling",
                arguments: [
                    ChatThroughGatewayTests.script, suite.gatewayURL, namespace, "polling", alice.accessToken, key, "chat", "\(first)",
                ], environment: ProcessInfo.processInfo.environment)
            let pythonWebSocket = try RunningProcess(
                url: python, name: "python websocket",
                arguments: [
                    ChatThroughGatewayTests.script, suite.gatewayURL, namespace, "websocket", bob.accessToken, key, "chat", "\(first)",
                ], environment: ProcessInfo.processInfo.environment)
            pythons = [pythonPolling, pythonWebSocket]
            _ = try await pythonPolling.line(containing: "connected polling")
            _ = try await pythonWebSocket.line(containing: "connected websocket")
            var gatewaySockets: [SocketIOTestClient] = []
            for token in [alice.accessToken, bob.accessToken] {
                let socket = try await SocketIOTestClient.open(
                    suite.gatewayURL, transport: .websocket, namespace: namespace, headers: [("SeSACKey", key), ("Authorization", token)]
                )
                let connected = try await socket.next()
                XCTAssertEqual(connected.type, 0, "\(connected)")
                gatewaySockets.append(socket)
            }
            var sent: [String] = []
            for n in 0..<first { sent.append(try await post("gateway-\(n)")) }
            for socket in gatewaySockets {
                var received: [String] = []
                for _ in 0..<first {
                    let event = try await socket.nextEvent("chat")
                    received.append(try JSON.string(try XCTUnwrap(event.first as? [String: Any]), "chat_id"))
                }
                XCTAssertEqual(received, sent)
                socket.close()
            }
            for process in pythons {
                _ = try await process.line(containing: "done")
                let received = process.transcript.split(separator: "\n").filter { $0.hasPrefix("chat ") }.map { line in
                    let json = line.split(separator: " ", maxSplits: 2)[2]
                    return (try? JSON.string(try JSON.object(ByteBuffer(string: String(json))), "chat_id")) ?? "unreadable: \(line)"
                }
                XCTAssertEqual(received, sent, "\(process.name): every message, in order")
            }
            XCTAssertTrue(pythonPolling.transcript.contains("chat polling"), "the polling session stayed on polling, across the gateway's turns")

            // 2. Sockets on replica A itself; replica B is killed after a third of the stream and
            //    started again after two thirds: A's sockets get every message once, in order.
            var onA: [SocketIOTestClient] = []
            for transport in [SocketIOTestClient.Transport.websocket, .pollingThenUpgrade] {
                let socket = try await SocketIOTestClient.open(
                    urls[0], transport: transport, namespace: namespace,
                    headers: TestEnvironment.internalHeaders(appID: try ChatThroughGatewayTests.appID(of: alice.accessToken)),
                    auth: ["token": alice.accessToken]
                )
                let connected = try await socket.next()
                XCTAssertEqual(connected.type, 0, "\(connected)")
                onA.append(socket)
            }
            defer { onA.forEach { $0.close() } }
            sent = []
            for n in 0..<30 {
                if n == 10 { await replicas[1].stop() }
                if n == 20 {
                    replicas[1] = try RunningProcess("chat-svc", environment: suite.environment.merging(["PORT": "\(ports[1])"]) { $1 })
                    _ = try await replicas[1].line(containing: "listening on")
                }
                sent.append(try await post("stream-\(n)"))
            }
            // The restarted replica is put back once its pause is over (30 s at most) and stores
            // messages again: a replica names itself anew at each start, so three origins.
            let database = try PostgresPool(url: databaseURL, logger: TestEnvironment.logger, maximumConnections: 1)
            defer { database.close() }
            func origins() async throws -> Int64 {
                try await database.read { try await $0.value(Int64.self, "SELECT COUNT(DISTINCT origin) FROM live_frame", logger: database.logger) }
                    ?? 0
            }
            let deadline = ContinuousClock.now + .seconds(40)
            while try await origins() < 3, ContinuousClock.now < deadline {
                sent.append(try await post("stream-\(sent.count)"))
                try await Task.sleep(for: .milliseconds(100))  // a steady stream, not a flood
            }
            let stored = try await origins()
            XCTAssertEqual(stored, 3, "the restarted replica was put back")
            for socket in onA {
                var received: [String] = []
                for _ in sent {
                    let event = try await socket.nextEvent("chat")
                    received.append(try JSON.string(try XCTUnwrap(event.first as? [String: Any]), "chat_id"))
                }
                XCTAssertEqual(received, sent, "every message once, in order, whichever replica stored it")
            }
            let restarted = replicas[1].transcript
            XCTAssertFalse(restarted.contains("migration applied"), "the restarted replica found the schema in place: \(restarted)")
        } catch {
            XCTFail("\(error)")
        }
        for process in pythons + replicas { await process.stop() }
        await suite.stop()
    }
}
