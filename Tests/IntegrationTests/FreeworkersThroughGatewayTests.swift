import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import Simulators
import TestSupport
import XCTest

/// Freeworkers (API.md §8) as the released app uses it, through the gateway to real auth-svc,
/// chat-svc, market-svc and payment-verify-svc processes (PortOne simulated): sign-up with
/// signup coins, a workspace bought with them, an invitation, a channel with files and sockets
/// opened with no headers at all (python-socketio and our Swift client), cursor sync, unreads,
/// a DM round trip, ownership and leaving, coins running out, and a coin purchase.
final class FreeworkersThroughGatewayTests: XCTestCase {
    static let key = "freeworkers-app-key"

    func testFreeworkersFromSignUpToCoinPurchase() async throws {
        let python = try ChatThroughGatewayTests.python()
        let pg = try await PortOneSimulator.start()
        let suite = try await AuthAndGateway.start(
            [
                "PORTONE_API_URL": pg.url, "PORTONE_IMP_KEY": PortOneSimulator.key, "PORTONE_IMP_SECRET": PortOneSimulator.secret,
            ], with: [.chat, .market, .paymentVerify]
        ) { dataDirectory in
            let create = try RunningProcess(
                "auth-svc",
                arguments: [
                    "apps", "create", "--name", "Freeworkers", "--profile", "slp", "--key", Self.key,
                    "--socket-auth-optional",
                ],
                environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
            let status = try await create.exitStatus()
            XCTAssertEqual(status, 0, create.transcript)
        }
        var processes: [RunningProcess] = []
        do {
            @Sendable func call(_ method: HTTPMethod, _ path: String, _ token: String? = nil, json: String? = nil) async throws -> HTTPProbe.Answer {
                let answer = try await suite.call(method, path, key: Self.key, token: token, json: json)
                XCTAssertTrue([200, 400].contains(answer.status), "\(path): \(answer.status) — slp apps only see 200 and 400")
                return answer
            }
            @Sendable func ok(_ method: HTTPMethod, _ path: String, _ token: String? = nil, json: String? = nil) async throws -> HTTPProbe.Answer {
                let answer = try await call(method, path, token, json: json)
                XCTAssertEqual(answer.status, 200, "\(path): \(answer.body.text)")
                return answer
            }
            func expect(_ code: String, _ answer: HTTPProbe.Answer, file: StaticString = #filePath, line: UInt = #line) throws {
                XCTAssertEqual(answer.status, 400, file: file, line: line)
                XCTAssertEqual(try JSON.object(answer.body) as? [String: String], ["errorCode": code], file: file, line: line)
            }
            func array(_ answer: HTTPProbe.Answer) throws -> [[String: Any]] {
                try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [[String: Any]], answer.body.text)
            }
            func multipart(_ method: HTTPMethod, _ path: String, _ token: String, _ form: MultipartBody) async throws -> HTTPProbe.Answer {
                try await HTTPProbe.call(
                    method, suite.gatewayURL + path,
                    headers: [
                        ("SeSACKey", Self.key), ("Authorization", token), ("Content-Type", form.contentType),
                    ], body: form.buffer)
            }
            func join(_ nickname: String) async throws -> SlpAuthOut {
                let joined = try await ok(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nickname)@fw.app","password":"pass1234!","nickname":"\#(nickname)"}"#)
                return try JSONDecoder().decode(SlpAuthOut.self, from: joined.body)
            }
            @Sendable func coins(_ token: String) async throws -> Int? {
                try JSON.object(try await ok(.GET, "/v1/users/me", token).body)["sesacCoin"] as? Int
            }
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)

            let alice = try await join("alice"), bob = try await join("bob")
            // The app signs in again on launch: a login answers the same AuthOut.
            let login = try await ok(.POST, "/v1/users/login", json: #"{"email":"bob@fw.app","password":"pass1234!"}"#)
            let bobAgain = try JSONDecoder().decode(SlpAuthOut.self, from: login.body)
            XCTAssertEqual(bobAgain.base.userID, bob.base.userID)
            let (aliceToken, bobToken) = (alice.extra.token.accessToken, bobAgain.extra.token.accessToken)
            let signupCoins = try await coins(aliceToken)
            XCTAssertEqual(signupCoins, 100, "SLP_SIGNUP_COINS in the wallet when the join answered")

            // Two workspaces spend the 100 coins; the third is E21 and creates nothing.
            func workspaceForm(_ name: String) -> MultipartBody {
                MultipartBody(parts: [
                    .field("name", name), .field("description", ""), .file("image", filename: "cover.jpg", contentType: "image/jpeg", bytes: png),
                ])
            }
            let created = try await multipart(.POST, "/v1/workspaces", aliceToken, workspaceForm("새싹 라운지"))
            XCTAssertEqual(created.status, 200, created.body.text)
            let workspace = try JSON.string(try JSON.object(created.body), "workspace_id")
            let second = try await multipart(.POST, "/v1/workspaces", aliceToken, workspaceForm("둘째"))
            XCTAssertEqual(second.status, 200)
            try expect("E21", try await multipart(.POST, "/v1/workspaces", aliceToken, workspaceForm("셋째")))
            let owned = try array(try await ok(.GET, "/v1/workspaces", aliceToken))
            XCTAssertEqual(owned.count, 2)
            let left = try await coins(aliceToken)
            XCTAssertEqual(left, 0)

            _ = try await ok(.POST, "/v1/workspaces/\(workspace)/members", aliceToken, json: #"{"email":"bob@fw.app"}"#)
            let detail = try JSON.object(try await ok(.GET, "/v1/workspaces/\(workspace)", bobToken).body)
            XCTAssertEqual((detail["channels"] as? [[String: Any]])?.map { $0["name"] as? String }, ["일반"])
            XCTAssertEqual((detail["workspaceMembers"] as? [Any])?.count, 2)
            // A nickname edited shows in the next workspace answer (chat-svc keeps its members,
            // and auth-svc tells it of the change before answering the edit).
            let renamed = try JSON.object(try await ok(.PUT, "/v1/users/me", bobToken, json: #"{"nickname":"밥"}"#).body)
            XCTAssertEqual(renamed["nickname"] as? String, "밥")
            let members = try array(try await ok(.GET, "/v1/workspaces/\(workspace)/members", bobToken))
            XCTAssertEqual(Set(members.compactMap { $0["nickname"] as? String }), ["alice", "밥"], "the new nickname in the next read")
            // The channel the rest happens in: made by alice, joined by bob when he writes.
            let made = try JSON.object(
                try await ok(.POST, "/v1/workspaces/\(workspace)/channels", aliceToken, json: #"{"name":"공지","description":"알림"}"#).body)
            let channel = try JSON.string(made, "channel_id")

            // Sockets as the app opens them: no key, no token, no headers.
            func pythonClient(_ label: String, _ namespace: String, transports: String, event: String) throws -> RunningProcess {
                let process = try RunningProcess(
                    url: python, name: label, arguments: [ChatThroughGatewayTests.script, suite.gatewayURL, namespace, transports, "", "", event],
                    environment: ProcessInfo.processInfo.environment)
                processes.append(process)
                return process
            }
            let channelPolling = try pythonClient(
                "python channel polling", "/ws-channel-\(channel)", transports: "polling,websocket", event: "channel")
            let channelWebSocket = try pythonClient("python channel websocket", "/ws-channel-\(channel)", transports: "websocket", event: "channel")
            let nowhere = try pythonClient(
                "python unknown channel", "/ws-channel-6740369b3a36e82f532ec7ff", transports: "websocket", event: "channel")
            let swift = try await SocketIOTestClient.open(suite.gatewayURL, transport: .pollingThenUpgrade, namespace: "/ws-channel-\(channel)")
            defer { swift.close() }
            let swiftAnswer = try await swift.next()
            XCTAssertEqual(swiftAnswer.type, 0, "\(swiftAnswer)")
            _ = try await channelPolling.line(containing: "connected")
            _ = try await channelWebSocket.line(containing: "connected websocket")
            _ = try await nowhere.line(containing: "refused")

            // A message with two files of the same name, sent by bob, reaches every socket.
            let first = try JSON.object(
                try await ok(.POST, "/v1/workspaces/\(workspace)/channels/\(channel)/chats", aliceToken, json: #"{"content":"첫 메시지"}"#).body)
            let withFiles = try await multipart(
                .POST, "/v1/workspaces/\(workspace)/channels/\(channel)/chats", bobToken,
                MultipartBody(parts: [
                    .field("content", "사진 두 장"),
                    .file("files", filename: "image.jpg", contentType: "image/jpeg", bytes: png),
                    .file("files", filename: "image.jpg", contentType: "image/jpeg", bytes: png + [1]),
                ]))
            XCTAssertEqual(withFiles.status, 200, withFiles.body.text)
            let sent = try JSON.object(withFiles.body)
            let chatID = try JSON.string(sent, "chat_id")
            XCTAssertEqual(Set(try XCTUnwrap(sent["files"] as? [String])).count, 2)
            let firstEvent = try await swift.nextEvent("channel")
            let secondEvent = try await swift.nextEvent("channel")
            let swiftEvents = [firstEvent, secondEvent]
            XCTAssertEqual(swiftEvents.map { ($0.first as? [String: Any])?["chat_id"] as? String }, [first["chat_id"] as? String, chatID])
            for process in [channelPolling, channelWebSocket] {
                let line = try await process.line(containing: "channel websocket")
                XCTAssertTrue(line.contains("첫 메시지"), line)  // each python client disconnects after its first event
            }

            // Cursor sync and unreads.
            let cursor = try JSON.string(first, "createdAt")
            let synced = try array(try await ok(.GET, "/v1/workspaces/\(workspace)/channels/\(channel)/chats?cursor_date=\(cursor)", bobToken))
            XCTAssertEqual(synced.map { $0["chat_id"] as? String }, [chatID])
            let all = try array(try await ok(.GET, "/v1/workspaces/\(workspace)/channels/\(channel)/chats?cursor_date=", bobToken))
            XCTAssertEqual(all.count, 2)
            let unreads = try JSON.object(
                try await ok(.GET, "/v1/workspaces/\(workspace)/channels/\(channel)/unreads?after=\(cursor)", aliceToken).body)
            XCTAssertEqual(unreads["count"] as? Int, 1)

            // A DM round trip with a socket on its namespace.
            let room = try JSON.string(
                try JSON.object(
                    try await ok(.POST, "/v1/workspaces/\(workspace)/dms", aliceToken, json: #"{"opponent_id":"\#(bob.base.userID)"}"#).body),
                "room_id")
            let dmSocket = try pythonClient("python dm", "/ws-dm-\(room)", transports: "polling,websocket", event: "dm")
            _ = try await dmSocket.line(containing: "connected")
            let dm = try JSON.object(
                try await ok(.POST, "/v1/workspaces/\(workspace)/dms/\(room)/chats", bobToken, json: #"{"content":"DM 안녕"}"#).body)
            let dmLine = try await dmSocket.line(containing: "dm ")
            XCTAssertTrue(dmLine.contains(try JSON.string(dm, "dm_id")), dmLine)
            let dmHistory = try array(try await ok(.GET, "/v1/workspaces/\(workspace)/dms/\(room)/chats", aliceToken))
            XCTAssertEqual(dmHistory.map { $0["dm_id"] as? String }, [dm["dm_id"] as? String])

            // Ownership and leaving.
            try expect("E15", try await call(.GET, "/v1/workspaces/\(workspace)/exit", aliceToken))
            let transferred = try JSON.object(
                try await ok(.PUT, "/v1/workspaces/\(workspace)/transfer/ownership", aliceToken, json: #"{"owner_id":"\#(bob.base.userID)"}"#).body)
            XCTAssertEqual(transferred["owner_id"] as? String, bob.base.userID)
            let remaining = try array(try await ok(.GET, "/v1/workspaces/\(workspace)/exit", aliceToken))
            XCTAssertEqual(remaining.count, 1, "alice still has her second workspace")
            try expect("E15", try await call(.GET, "/v1/workspaces/\(workspace)/exit", bobToken))
            try expect("E13", try await call(.GET, "/v1/workspaces/\(workspace)", aliceToken))

            // Buying 10 coins: in the balance the app reads as the purchase screen closes, every
            // time (20 purchases, each read at once); the same payment again is E81, granted once.
            let items = try array(try await ok(.GET, "/v1/store/item/list", aliceToken))
            XCTAssertEqual(items.map { $0["coin"] as? Int }, [10, 50, 100])
            for purchase in 1...20 {
                let impUID = pg.createPayment(merchantUID: "fw-coins-\(purchase)", amount: 100, name: "10 Coin")
                let bought = try JSON.object(
                    try await ok(
                        .POST, "/v1/store/pay/validation", aliceToken,
                        json: #"{"imp_uid":"\#(impUID)","merchant_uid":"fw-coins-\#(purchase)"}"#
                    ).body)
                XCTAssertEqual(bought["sesacCoin"] as? Int, 10)
                let balance = try await coins(aliceToken)
                XCTAssertEqual(balance, 10 * purchase, "purchase \(purchase): the coins are in the next read")
                if purchase == 1 {
                    try expect(
                        "E81",
                        try await call(.POST, "/v1/store/pay/validation", aliceToken, json: #"{"imp_uid":"\#(impUID)","merchant_uid":"fw-coins-1"}"#))
                }
            }
        } catch {
            XCTFail("\(error)")
        }
        for process in processes { await process.stop() }
        await suite.stop()
        await pg.stop()
    }
}
