import Contracts
import Foundation
import GRDB
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// auth-svc, chat-svc, push-svc and the gateway as processes; FCM and APNs are the simulators,
/// reached by push-svc's real clients (APNs over HTTP/2 and TLS).
final class PushThroughGatewayTests: XCTestCase {
    func testChatMessagesArePushedToWhoeverIsAway() async throws {
        let fcm = try await FCMSimulator.start(), apns = try await APNsSimulator.start()
        let files = try TestEnvironment.temporaryDirectory()
        for (name, text) in [("fcm.json", fcm.serviceAccountJSON), ("apns.p8", apns.authKeyPEM), ("apns-ca.pem", apns.certificatePEM)] {
            try text.write(toFile: files + "/" + name, atomically: true, encoding: .utf8)
        }
        let suite = try await AuthAndGateway.start(
            [
                "PUSH_FCM_URL": fcm.url, "PUSH_FCM_SERVICE_ACCOUNT_FILE": files + "/fcm.json",
                "PUSH_APNS_URL": apns.url, "PUSH_APNS_KEY_FILE": files + "/apns.p8", "PUSH_APNS_KEY_ID": APNsSimulator.keyID,
                "PUSH_APNS_TEAM_ID": APNsSimulator.teamID, "PUSH_APNS_TOPIC": APNsSimulator.topic, "PUSH_APNS_CA_FILE": files + "/apns-ca.pem",
            ], with: [.chat, .push])
        var restarted: RunningProcess?
        var sockets: [SocketIOTestClient] = []
        do {
            func join(_ nick: String) async throws -> AuthAnswer {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
            }
            func device(_ user: AuthAnswer, _ token: String) async throws {
                let answer = try await suite.call(.PUT, "/v1/users/deviceToken", token: user.accessToken, json: #"{"deviceToken":"\#(token)"}"#)
                XCTAssertEqual(answer.status, 200, answer.body.text)
            }
            func room(_ from: AuthAnswer, _ to: AuthAnswer) async throws -> String {
                let opened = try await suite.call(.POST, "/v1/chats", token: from.accessToken, json: #"{"opponent_id":"\#(to.userID)"}"#)
                return try JSON.string(try JSON.object(opened.body), "room_id")
            }
            func send(_ from: AuthAnswer, _ room: String, _ content: String) async throws {
                let sent = try await suite.call(.POST, "/v1/chats/\(room)", token: from.accessToken, json: #"{"content":"\#(content)"}"#)
                XCTAssertEqual(sent.status, 200, sent.body.text)
            }
            let alice = try await join("alice"), bob = try await join("bob"), carol = try await join("carol"), dave = try await join("dave")
            let bobToken = "bob-fcm:APA91b" + String(repeating: "b", count: 120), carolToken = "carol-fcm:APA91b" + String(repeating: "c", count: 120)
            let daveToken = String(repeating: "d0", count: 32)
            try await device(bob, bobToken)
            try await device(carol, carolToken)
            try await device(dave, daveToken)

            // Carol has the room open; Bob and Dave are away.
            let carolRoom = try await room(alice, carol)
            let socket = try await SocketIOTestClient.open(
                suite.gatewayURL, transport: .websocket, namespace: "/chats-" + carolRoom,
                headers: [("SeSACKey", AuthAndGateway.appKey), ("Authorization", carol.accessToken)])
            sockets.append(socket)
            let connected = try await socket.next()
            XCTAssertEqual(connected.type, 0, "\(connected)")
            try await send(alice, carolRoom, "보여?")
            let bobRoom = try await room(alice, bob)
            try await send(alice, bobRoom, "자니?")
            let daveRoom = try await room(alice, dave)
            try await send(alice, daveRoom, "hello dave")

            let toBob = await HTTPProbe.eventually(within: .seconds(20)) { () -> FCMSimulator.Delivery? in fcm.received.first { $0.token == bobToken }
            }
            XCTAssertEqual(toBob?.data["roomId"], bobRoom)
            XCTAssertEqual(toBob?.data["content"], "자니?")
            let toDave = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in apns.received.first { $0.token == daveToken }?.http2 }
            XCTAssertEqual(toDave, true, "the APNs device got its push over HTTP/2")
            XCTAssertEqual(fcm.received.filter { $0.token == bobToken }.count, 1, "exactly one delivery")
            XCTAssertTrue(fcm.received.allSatisfy { $0.token != carolToken }, "a participant connected to the room gets none")

            // A device token sent only with the login (as several released apps do) gets pushes too.
            let erin = try await join("erin"), erinToken = "erin-fcm:APA91b" + String(repeating: "e", count: 120)
            let login = try await suite.call(
                .POST, "/v1/users/login", json: #"{"email":"erin@glint.app","password":"pass1234!","deviceToken":"\#(erinToken)"}"#)
            XCTAssertEqual(login.status, 200, login.body.text)
            // The token travels through auth-svc's outbox; a message pushed before push-svc has it
            // finds no device (by design), so the test waits for it rather than racing it.
            let database = try DatabaseQueue(
                path: suite.dataDirectory + "/push-svc.sqlite",
                configuration: {
                    var c = Configuration(); c.readonly = true; return c
                }())
            @Sendable func devices(_ token: String) async -> Int? {
                try? await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM device WHERE token = ?", arguments: [token]) }
            }
            let known = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in await devices(erinToken) == 1 ? true : nil }
            XCTAssertEqual(known, true, "the login's device token reached push-svc")
            let erinRoom = try await room(alice, erin)
            try await send(alice, erinRoom, "로그인만 했어요")
            let toErin = await HTTPProbe.eventually(within: .seconds(20)) { () -> FCMSimulator.Delivery? in
                fcm.received.first { $0.token == erinToken }
            }
            XCTAssertEqual(toErin?.data["content"], "로그인만 했어요")

            // An UNREGISTERED answer prunes the token.
            fcm.unregister(bobToken)
            try await send(alice, bobRoom, "거기 있어?")
            let pruned = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in await devices(bobToken) == 0 ? true : nil }
            XCTAssertEqual(pruned, true, "bob's dead token is pruned")
            try await device(bob, bobToken + "-new")

            // FCM failing: the notification waits; push-svc killed and started again delivers it.
            fcm.fail(next: 1_000_000)
            try await send(alice, bobRoom, "다시")
            let pushProcess = try XCTUnwrap(suite.process(.push))
            _ = try await pushProcess.line(containing: "deliveries not sent this round")
            await pushProcess.stop()
            fcm.fail(next: 0)
            restarted = try await suite.restart(.push)
            let again = await HTTPProbe.eventually(within: .seconds(30)) { () -> Int? in
                let count = fcm.received.filter { $0.token == bobToken + "-new" && $0.data["content"] == "다시" }.count
                return count > 0 ? count : nil
            }
            XCTAssertEqual(again, 1, "delivered once after the restart")
        } catch {
            for socket in sockets { socket.close() }
            await restarted?.stop()
            await suite.stop()
            throw error
        }
        for socket in sockets { socket.close() }
        await restarted?.stop()
        await suite.stop()
        await fcm.stop()
        await apns.stop()
    }
}
