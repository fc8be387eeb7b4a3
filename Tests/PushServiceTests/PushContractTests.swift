import Contracts
import Hummingbird
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import PushService

/// API.md §6 against the FCM simulator.
final class PushContractTests: XCTestCase {
    static let aliceToken = "fcm-alice:APA91b" + String(repeating: "a", count: 100)
    static let bobToken = "fcm-bob:APA91b" + String(repeating: "b", count: 100)
    static let carolToken = "fcm-carol:APA91b" + String(repeating: "c", count: 100)

    private static func register(
        _ client: some TestClientProtocol, _ harness: PushHarness, _ user: String, _ token: String, session: String = "session-1"
    ) async throws {
        let response = try await client.execute(
            uri: "/v1/users/deviceToken", method: .put, headers: try await harness.headers(user, session: session),
            body: JSONCoding.encode(DeviceTokenRequest(deviceToken: token)))
        XCTAssertEqual(response.status, .ok, response.body.text)
        XCTAssertEqual(response.body.text, "{}")
    }

    private static func push(
        _ client: some TestClientProtocol, _ harness: PushHarness, _ path: String, _ body: PushRequest
    ) async throws -> TestResponse {
        try await client.execute(uri: path, method: .post, headers: try await harness.headers(), body: JSONCoding.encode(body))
    }

    func testDeviceTokensAreRegisteredMovedAndCleared() async throws {
        let harness = try await PushHarness.make()
        try await harness.app.contractTest { client in
            let apnsToken = String(repeating: "ab", count: 32)
            try await Self.register(client, harness, PushHarness.alice, Self.aliceToken)
            try await Self.register(client, harness, PushHarness.alice, apnsToken, session: "session-2")
            var devices = try await harness.devices()
            XCTAssertEqual(devices, [Self.aliceToken: PushHarness.alice, apnsToken: PushHarness.alice], "several devices per user")
            // As operators see them (admin-svc): tokens by their end only, within the app.
            let listed = try await client.execute(
                uri: "/internal/users/\(PushHarness.alice)/devices", method: .get, headers: TestEnvironment.fields(app: PushHarness.appID))
            let summaries = try JSONCoding.decoder.decode([OperatorDeviceSummary].self, from: listed.body)
            XCTAssertEqual(Set(summaries.map(\.tokenEnd)), [String(Self.aliceToken.suffix(6)), String(apnsToken.suffix(6))])
            XCTAssertEqual(Set(summaries.map(\.sessionId)), ["session-1", "session-2"])
            let elsewhere = try await client.execute(
                uri: "/internal/users/\(PushHarness.alice)/devices", method: .get, headers: TestEnvironment.fields(app: "another-app"))
            XCTAssertEqual(try JSONCoding.decoder.decode([OperatorDeviceSummary].self, from: elsewhere.body), [])
            let platforms = try await harness.engine.values(String.self, "SELECT platform FROM device ORDER BY platform")
            XCTAssertEqual(platforms, ["apns", "fcm"])
            try await Self.register(client, harness, PushHarness.bob, Self.aliceToken)
            devices = try await harness.devices()
            XCTAssertEqual(devices[Self.aliceToken], PushHarness.bob, "a token signed in by another user moves")
            XCTAssertEqual(devices.count, 2, "moved, not duplicated")
            try await Self.register(client, harness, PushHarness.alice, "", session: "session-2")
            devices = try await harness.devices()
            XCTAssertEqual(devices, [Self.aliceToken: PushHarness.bob], "\"\" removes this session's device only")
            let bad = try await client.execute(
                uri: "/v1/users/deviceToken", method: .put, headers: try await harness.headers(),
                body: JSONCoding.encode(DeviceTokenRequest(deviceToken: "has space")))
            XCTAssertEqual(bad.status, .badRequest)
            let given = try await client.execute(
                uri: "/v1/users/deviceToken", method: .put, headers: try await harness.headers(PushHarness.carol),
                body: JSONCoding.encode(DeviceTokenRequest(deviceToken: "short-apns-token", platform: "apns")))
            XCTAssertEqual(given.status, .ok)
            let carolPlatform = try await harness.engine.values(String.self, "SELECT platform FROM device WHERE token = 'short-apns-token'").first
            XCTAssertEqual(carolPlatform, "apns", "the platform may be given")
            let unknown = try await client.execute(
                uri: "/v1/users/deviceToken", method: .put, headers: try await harness.headers(PushHarness.carol),
                body: JSONCoding.encode(DeviceTokenRequest(deviceToken: "t", platform: "pager")))
            XCTAssertEqual(unknown.status, .badRequest)
        }
    }

    func testPushesReachEveryDeviceOnce() async throws {
        let harness = try await PushHarness.make()
        try await harness.app.contractTest { client in
            try await Self.register(client, harness, PushHarness.bob, Self.bobToken)
            try await Self.register(client, harness, PushHarness.carol, Self.carolToken)
            let one = try await Self.push(
                client, harness, "/v1/notifications/push", PushRequest(userID: PushHarness.bob, title: "hi", body: "there", data: ["k": "v"]))
            XCTAssertEqual(one.status, .ok, one.body.text)
            JSON.assertKeys(try JSON.object(one.body), ["notification_id"])
            let group = try await Self.push(
                client, harness, "/v1/notifications/push/group",
                PushRequest(userIDs: [PushHarness.bob, PushHarness.carol, PushHarness.alice], title: "all", body: "of you"))
            XCTAssertEqual(group.status, .ok, group.body.text)
            let received = await harness.received(3)
            XCTAssertEqual(received.count, 3)
            XCTAssertEqual(received.first { $0.title == "hi" }?.data, ["k": "v"])
            XCTAssertEqual(Set(received.filter { $0.title == "all" }.compactMap(\.token)), [Self.bobToken, Self.carolToken])
            let sent = try await harness.deliveries("sent")
            XCTAssertEqual(sent, 3)
            XCTAssertEqual(harness.fcm.oauthGrants, 1, "the OAuth token is cached")

            for (path, body) in [
                ("/v1/notifications/push", PushRequest(title: "no user", body: "")),
                ("/v1/notifications/push", PushRequest(userID: "nobody", title: "t", body: "b")),
                ("/v1/notifications/push/group", PushRequest(userIDs: [], title: "t", body: "b")),
                ("/v1/notifications/push", PushRequest(userID: PushHarness.bob, title: "", body: "")),
            ] {
                let response = try await Self.push(client, harness, path, body)
                XCTAssertEqual(response.status, .badRequest, "\(body)")
            }
            let huge = try await Self.push(
                client, harness, "/v1/notifications/push",
                PushRequest(userID: PushHarness.bob, title: "t", body: String(repeating: "가", count: 2_000)))
            XCTAssertEqual(huge.status.code, 413, "over the 4 KB payload")
        }
    }

    func testChatMessagesSkipTheSenderAndWhoeverIsInTheRoom() async throws {
        let harness = try await PushHarness.make()
        try await harness.app.contractTest { client in
            for (user, token) in [(PushHarness.alice, Self.aliceToken), (PushHarness.bob, Self.bobToken), (PushHarness.carol, Self.carolToken)] {
                try await Self.register(client, harness, user, token)
            }
            let event = ChatMessageEvent(
                appID: PushHarness.appID, roomID: "6740369b3a36e82f532ec7aa", chatID: "6740369b3a36e82f532ec7bb", senderID: PushHarness.alice,
                senderNick: "alice", content: "안녕", files: [], recipients: [PushHarness.bob, PushHarness.carol], present: [PushHarness.bob],
                createdAt: "2024-11-22T07:45:31.693Z")
            for _ in 0..<2 {
                let response = try await client.execute(
                    uri: "/internal/chat-messages", method: .post,
                    headers: TestEnvironment.fields(app: PushHarness.appID, extra: [("content-type", "application/json")]),
                    body: JSONCoding.encode([event]))
                XCTAssertEqual(response.status, .ok)
            }
            let tooMany = try await client.execute(
                uri: "/internal/chat-messages", method: .post,
                headers: TestEnvironment.fields(app: PushHarness.appID, extra: [("content-type", "application/json")]),
                body: JSONCoding.encode(Array(repeating: event, count: 101)))
            XCTAssertEqual(tooMany.status, .badRequest, "at most 100 messages a call")
            let received = await harness.received(1)
            XCTAssertEqual(received.map(\.token), [Self.carolToken], "not the sender, not bob who has the room open")
            XCTAssertEqual(received.first?.data, ["roomId": event.roomID, "content": "안녕", "chatId": event.chatID, "senderNick": "alice"])
            let notifications = try await harness.engine.values(Int.self, "SELECT COUNT(*) FROM notification").first
            XCTAssertEqual(notifications, 1, "the same event twice is one notification")
        }
    }

    func testDeadTokensArePrunedAndOutagesRetried() async throws {
        let harness = try await PushHarness.make()
        try await harness.app.contractTest { client in
            try await Self.register(client, harness, PushHarness.bob, Self.bobToken)
            try await Self.register(client, harness, PushHarness.carol, Self.carolToken)
            harness.fcm.unregister(Self.bobToken)
            harness.fcm.fail(next: 2)
            let response = try await Self.push(
                client, harness, "/v1/notifications/push/group",
                PushRequest(userIDs: [PushHarness.bob, PushHarness.carol], title: "t", body: "b"))
            XCTAssertEqual(response.status, .ok)
            let received = await harness.received(1, within: 20)
            XCTAssertEqual(received.map(\.token), [Self.carolToken], "503s are retried until delivered")
            let pruned = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in
                ((try? await harness.devices()) ?? [:])[Self.bobToken] == nil ? true : nil
            }
            XCTAssertEqual(pruned, true, "UNREGISTERED prunes the token")
            let dead = try await harness.deliveries("dead")
            XCTAssertEqual(dead, 1)
        }
    }

    func testUserTopicsWhenConfigured() async throws {
        let harness = try await PushHarness.make(userTopics: true)
        try await harness.app.contractTest { client in
            let response = try await Self.push(client, harness, "/v1/notifications/push", PushRequest(userID: PushHarness.bob, title: "t", body: "b"))
            XCTAssertEqual(response.status, .ok)
            let received = await harness.received(1)
            XCTAssertEqual(received.map(\.topic), ["user_" + PushHarness.bob])
        }
    }

    func testAPNsDevicesGetTheirPushOverHTTP2() async throws {
        let harness = try await PushHarness.make()
        try await harness.app.contractTest { client in
            let live = String(repeating: "0a", count: 32), gone = String(repeating: "0b", count: 32)
            try await Self.register(client, harness, PushHarness.bob, live)
            try await Self.register(client, harness, PushHarness.bob, gone, session: "session-2")
            harness.apns.unregister(gone)
            harness.apns.fail(next: 1)
            let response = try await Self.push(
                client, harness, "/v1/notifications/push", PushRequest(userID: PushHarness.bob, title: "t", body: "b", data: ["roomId": "r1"]))
            XCTAssertEqual(response.status, .ok)
            let received =
                await HTTPProbe.eventually(within: .seconds(20)) { () -> [APNsSimulator.Delivery]? in
                    let received = harness.apns.received
                    return received.isEmpty ? nil : received
                } ?? []
            XCTAssertEqual(received.map(\.token), [live])
            XCTAssertEqual(received.first?.http2, true, "HTTP/2")
            XCTAssertEqual(received.first?.payload["roomId"] as? String, "r1")
            XCTAssertNotNil(received.first?.payload["aps"])
            let pruned = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in
                ((try? await harness.devices()) ?? [:])[gone] == nil ? true : nil
            }
            XCTAssertEqual(pruned, true, "410 Unregistered prunes the token")
        }
    }
}
