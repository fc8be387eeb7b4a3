import Contracts
import Foundation
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// auth-svc, chat-svc and the gateway as real processes; sockets opened through the gateway by
/// our Swift client and by python-socketio, over both transports.
final class ChatThroughGatewayTests: XCTestCase {
    /// The virtualenv interpreter `scripts/test` prepares (python-socketio from PyPI).
    static func python() throws -> URL {
        let path = try XCTUnwrap(
            ProcessInfo.processInfo.environment["GLINT_TEST_PYTHON"], "run the tests with scripts/test (it prepares python-socketio)")
        return URL(fileURLWithPath: path)
    }

    /// The `app` claim of an access token (chat-svc's own routes take the app from the gateway).
    static func appID(of token: String) throws -> String {
        let payload = try XCTUnwrap(Base64URL.decode(String(token.split(separator: ".")[1])))
        return try JSON.string(try JSON.object(ByteBuffer(data: payload)), "app")
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/chat_client.py").path

    /// The gateway hands each socket's connection to chat-svc (`SocketHandoff`): the sockets then
    /// outlive the gateway itself.
    func testSwiftAndPythonClientsReceiveChatsThroughTheGateway() async throws {
        try await receiveChats(handedOver: true)
    }

    /// Without the handoff setting the gateway relays the sockets' bytes (a splice).
    func testSwiftAndPythonClientsReceiveChatsWhenTheGatewayRelaysThem() async throws {
        try await receiveChats(handedOver: false)
    }

    private func receiveChats(handedOver: Bool) async throws {
        let python = try Self.python()
        let suite = try await AuthAndGateway.start(handedOver ? [:] : [SocketHandoff.path.name: ""], with: [.chat])
        var pythons: [RunningProcess] = []
        do {
            func join(_ nick: String) async throws -> AuthAnswer {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
                XCTAssertEqual(answer.status, 200, answer.body.text)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
            }
            let alice = try await join("alice"), bob = try await join("bob"), carol = try await join("carol")
            let opened = try await suite.call(.POST, "/v1/chats", token: alice.accessToken, json: #"{"opponent_id":"\#(bob.userID)"}"#)
            XCTAssertEqual(opened.status, 200, opened.body.text)
            let namespace = "/chats-" + (try JSON.string(try JSON.object(opened.body), "room_id"))
            let key = AuthAndGateway.appKey

            let swiftWebSocket = try await SocketIOTestClient.open(
                suite.gatewayURL, transport: .websocket, namespace: namespace, headers: [("SeSACKey", key), ("Authorization", alice.accessToken)]
            )
            let swiftPolling = try await SocketIOTestClient.open(
                suite.gatewayURL, transport: .pollingThenUpgrade, namespace: namespace, headers: [("SeSACKey", key)], auth: ["token": bob.accessToken]
            )
            defer { swiftWebSocket.close(); swiftPolling.close() }
            for socket in [swiftWebSocket, swiftPolling] {
                let answer = try await socket.next()
                XCTAssertEqual(answer.type, 0, "\(answer)")
            }

            func pythonClient(_ label: String, transports: String, token: String, key: String = key) throws -> RunningProcess {
                let process = try RunningProcess(
                    url: python, name: label, arguments: [Self.script, suite.gatewayURL, namespace, transports, token, key],
                    environment: ProcessInfo.processInfo.environment)
                pythons.append(process)
                return process
            }
            let pythonUpgrade = try pythonClient("python alice", transports: "polling,websocket", token: alice.accessToken)
            let pythonWebSocket = try pythonClient("python bob", transports: "websocket", token: bob.accessToken)
            let outsider = try pythonClient("python carol", transports: "websocket", token: carol.accessToken)
            let anonymous = try pythonClient("python anonymous", transports: "polling,websocket", token: "")
            _ = try await pythonUpgrade.line(containing: "connected")
            _ = try await pythonWebSocket.line(containing: "connected websocket")
            _ = try await outsider.line(containing: "refused")
            _ = try await anonymous.line(containing: "refused")

            let sent = try await suite.call(
                .POST, "/v1/chats/\(namespace.dropFirst("/chats-".count))", token: bob.accessToken, json: #"{"content":"게이트웨이 너머 안녕"}"#)
            XCTAssertEqual(sent.status, 200, sent.body.text)
            let chatID = try JSON.string(try JSON.object(sent.body), "chat_id")

            for socket in [swiftWebSocket, swiftPolling] {
                let chat = try await socket.nextEvent("chat").first as? [String: Any]
                XCTAssertEqual(chat?["chat_id"] as? String, chatID)
            }
            for process in [pythonUpgrade, pythonWebSocket] {
                // The polling client has upgraded by now: the event arrives over WebSocket.
                let line = try await process.line(containing: "chat websocket")
                XCTAssertTrue(line.contains("게이트웨이 너머 안녕") && line.contains(chatID), line)
                _ = try await process.line(containing: "done")
            }
            if handedOver {
                // With the gateway gone, a chat posted on chat-svc itself still reaches the
                // sockets opened through it: their connections are chat-svc's.
                await suite.gateway.stop()
                let chatURL = try XCTUnwrap(suite.environment[ServiceName.chat.urlVariable])
                let room = namespace.dropFirst("/chats-".count)
                let direct = try await HTTPProbe.call(
                    .POST, "\(chatURL)/v1/chats/\(room)",
                    headers: TestEnvironment.internalHeaders(appID: try Self.appID(of: bob.accessToken))
                        + [("Authorization", bob.accessToken), ("Content-Type", "application/json")],
                    body: .init(string: #"{"content":"after the gateway"}"#)
                )
                XCTAssertEqual(direct.status, 200, direct.body.text)
                for socket in [swiftWebSocket, swiftPolling] {
                    let chat = try await socket.nextEvent("chat").first as? [String: Any]
                    XCTAssertEqual(chat?["content"] as? String, "after the gateway")
                }
            }
        } catch {
            XCTFail("\(error)")
        }
        for process in pythons { await process.stop() }
        await suite.stop()
    }
}
