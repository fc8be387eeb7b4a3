import Contracts
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// What operators read of messages (asked by admin-svc): one among the three before and after
/// it in its room, an author's newest, several by id; hiding one shows in each.
final class MessageModerationTests: XCTestCase {
    typealias H = ChatHarness

    func testAMessageAmongItsNeighboursAndAnAuthorsNewest() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            var ids: [String] = []
            for index in 0..<9 {
                let sender = index == 4 ? H.bob : H.alice
                let sent = try await harness.send(client, sender, room: room, SendChatRequest(content: "메시지 \(index)"))
                ids.append(try JSON.string(sent, "chat_id"))
            }
            let elsewhere = try await harness.room(client, H.bob, with: H.carol)
            let other = try JSON.string(try await harness.send(client, H.bob, room: elsewhere, SendChatRequest(content: "다른 방")), "chat_id")
            let gateway = TestEnvironment.fields(app: H.appID, extra: [("content-type", "application/json")])

            let around = try await client.execute(uri: "/internal/chat/moderation/message/\(ids[4])/around", method: .get, headers: gateway)
            XCTAssertEqual(around.status, .ok, around.body.text)
            let shown = try JSONCoding.decoder.decode([ContentSummary].self, from: around.body)
            XCTAssertEqual(shown.map(\.id), Array(ids[1...7]), "three before, itself, three after, oldest first, its room only")
            XCTAssertEqual(shown.map(\.preview), (1...7).map { "메시지 \($0)" })
            XCTAssertEqual(shown[3].authorId, H.bob)
            XCTAssertNotNil(GlintDate.milliseconds(from: shown[3].createdAt))
            let first = try await client.execute(uri: "/internal/chat/moderation/message/\(ids[0])/around", method: .get, headers: gateway)
            XCTAssertEqual(try JSONCoding.decoder.decode([ContentSummary].self, from: first.body).map(\.id), Array(ids[0...3]))

            _ = try await client.execute(
                uri: "/internal/chat/moderation/message/\(ids[5])/hide", method: .post, headers: gateway,
                body: JSONCoding.encode(ModerationRequest(operatorID: "op-1", reason: "욕설")))
            let byBob = try await client.execute(
                uri: "/internal/chat/moderation/message/find", method: .post, headers: gateway,
                body: JSONCoding.encode(ContentFind(authorId: H.bob, limit: 5)))
            XCTAssertEqual(byBob.status, .ok, byBob.body.text)
            XCTAssertEqual(try JSONCoding.decoder.decode([ContentSummary].self, from: byBob.body).map(\.id), [other, ids[4]], "newest first")
            let byID = try await client.execute(
                uri: "/internal/chat/moderation/message/find", method: .post, headers: gateway,
                body: JSONCoding.encode(ContentFind(ids: [ids[5], "6740369b3a36e82f532ec7ff", ids[6]])))
            let found = try JSONCoding.decoder.decode([ContentSummary].self, from: byID.body)
            XCTAssertEqual(found.map(\.id), [ids[5], ids[6]], "in the order asked, the unknown left out")
            XCTAssertEqual(found.map(\.hidden), [true, false])
            XCTAssertEqual(found[0].hiddenReason, "욕설")

            for (uri, body, status) in [
                ("/internal/chat/moderation/message/find", ContentFind(), HTTPResponse.Status.badRequest),
                ("/internal/chat/moderation/message/find", ContentFind(ids: [ids[0]], authorId: H.bob), .badRequest),
                ("/internal/chat/moderation/message/find", ContentFind(authorId: H.bob, limit: 101), .badRequest),
                ("/internal/chat/moderation/message/find", ContentFind(ids: Array(repeating: ids[0], count: 201)), .badRequest),
                ("/internal/chat/moderation/post/find", ContentFind(authorId: H.bob), .notFound),
            ] {
                let refused = try await client.execute(uri: uri, method: .post, headers: gateway, body: JSONCoding.encode(body))
                XCTAssertEqual(refused.status, status, "\(uri) \(body)")
            }
            let otherApp = try await client.execute(
                uri: "/internal/chat/moderation/message/\(ids[4])/around", method: .get, headers: TestEnvironment.fields(app: "another-app"))
            XCTAssertEqual(otherApp.status, .notFound)
        }
    }
}
