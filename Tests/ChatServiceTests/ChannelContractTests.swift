import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// API.md §8 channels and their messages, key by key: permissions, joining by reading or
/// writing, files inside the send, cursor sync and unread counts.
final class ChannelContractTests: XCTestCase {
    typealias H = ChatHarness
    typealias W = WorkspaceFixtures

    func testChannelsBelongToTheWorkspaceAndItsOwners() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            let id = try JSON.string(try await api.createWorkspace("팀", as: H.alice), "workspace_id")
            try await api.invite(H.bob, to: id, as: H.alice)
            let base = "/v1/workspaces/\(id)/channels"
            let general = try await api.defaultChannel(of: id, as: H.bob)

            let created = try await api.object(.post, base, as: H.alice, json: NameDescriptionRequest(name: "공지", description: "알림"))
            JSON.assertKeys(created, ["channel_id", "name", "description", "owner_id", "createdAt"])
            XCTAssertEqual(created["owner_id"] as? String, H.alice)
            let notices = try JSON.string(created, "channel_id")
            try await api.expect("E12", .post, base, as: H.bob, json: NameDescriptionRequest(name: "공지"), "name taken in this workspace")
            try await api.expect("E11", .post, base, as: H.bob, json: NameDescriptionRequest(name: ""))
            try await api.expect("E13", .post, base, as: H.carol, json: NameDescriptionRequest(name: "외부"), "outsiders see nothing")

            let all = try await api.array(.get, base, as: H.bob)
            XCTAssertEqual(all.map { $0["name"] as? String }, ["일반", "공지"])
            let bobsBefore = try await api.array(.get, "/v1/workspaces/\(id)/my-channels", as: H.bob)
            XCTAssertEqual(bobsBefore.map { $0["name"] as? String }, ["일반"])
            let read = try await api.array(.get, base + "/\(notices)/chats", as: H.bob)
            XCTAssertEqual(read.count, 0)
            let bobsAfter = try await api.array(.get, "/v1/workspaces/\(id)/my-channels", as: H.bob)
            XCTAssertEqual(bobsAfter.map { $0["name"] as? String }, ["일반", "공지"], "reading joins the channel")

            let detail = try await api.object(.get, base + "/\(notices)", as: H.bob)
            JSON.assertKeys(detail, ["channel_id", "name", "description", "owner_id", "createdAt", "channelMembers"])
            let members = try XCTUnwrap(detail["channelMembers"] as? [[String: Any]])
            XCTAssertEqual(members.map { $0["user_id"] as? String }, [H.alice, H.bob])
            members.forEach { JSON.assertKeys($0, W.userKeys) }
            try await api.expect("E13", .get, base + "/6740369b3a36e82f532ec7ff", as: H.bob, "no such channel")

            // The channel's owner or the workspace's owner may change or delete it; others E14.
            let bobs = try JSON.string(try await api.object(.post, base, as: H.bob, json: NameDescriptionRequest(name: "잡담")), "channel_id")
            try await api.expect("E14", .put, base + "/\(notices)", as: H.bob, json: NameDescriptionRequest(name: "바꿈"))
            try await api.expect("E14", .delete, base + "/\(notices)", as: H.bob)
            let renamed = try await api.object(.put, base + "/\(bobs)", as: H.alice, json: NameDescriptionRequest(name: "수다", description: ""))
            XCTAssertEqual(renamed["name"] as? String, "수다")
            try await api.expect("E12", .put, base + "/\(bobs)", as: H.bob, json: NameDescriptionRequest(name: "공지"), "name taken")
            try await api.expect("E15", .delete, base + "/\(general)", as: H.alice, "일반 cannot be deleted")
            try await api.expect("E15", .get, base + "/\(general)/exit", as: H.bob, "nobody leaves 일반")
            let stillIn = try await api.array(.get, base + "/\(notices)/exit", as: H.bob)
            XCTAssertEqual(stillIn.map { $0["name"] as? String }, ["일반", "수다"], "exit answers the channels the caller is still in")
            let deleted = try await api.object(.delete, base + "/\(bobs)", as: H.bob)
            XCTAssertEqual(deleted.count, 0)
            let remaining = try await api.array(.get, base, as: H.alice)
            XCTAssertEqual(remaining.map { $0["name"] as? String }, ["일반", "공지"])
        }
    }

    func testChatsWithFilesCursorSyncAndUnreads() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            let id = try JSON.string(try await api.createWorkspace("팀", as: H.alice), "workspace_id")
            try await api.invite(H.bob, to: id, as: H.alice)
            let general = try await api.defaultChannel(of: id, as: H.alice)
            let chats = "/v1/workspaces/\(id)/channels/\(general)/chats"

            let first = try await api.object(.post, chats, as: H.alice, json: ContentRequest(content: "안녕하세요"))
            JSON.assertKeys(first, W.channelChatKeys)
            XCTAssertEqual(first["channel_id"] as? String, general)
            XCTAssertEqual(first["channelName"] as? String, "일반")
            XCTAssertEqual(first["content"] as? String, "안녕하세요")
            XCTAssertEqual(first["files"] as? [String], [])
            let user = try XCTUnwrap(first["user"] as? [String: Any])
            JSON.assertKeys(user, W.userKeys)
            XCTAssertEqual(user["user_id"] as? String, H.alice)

            // Files inside the send: two parts with the same filename, content as a field.
            let withFiles = try await api.object(.post, chats, as: H.alice, multipart: W.messageForm("사진 두 장", files: 2))
            let paths = try XCTUnwrap(withFiles["files"] as? [String])
            XCTAssertEqual(paths.count, 2)
            XCTAssertEqual(Set(paths).count, 2, "duplicate filenames are stored under names of our own")
            XCTAssertTrue(paths.allSatisfy { $0.hasPrefix("/data/chats/") })
            let served = try await client.execute(uri: "/v1" + paths[1], method: .get, headers: TestEnvironment.fields(app: H.openApp))
            XCTAssertEqual(Array(served.body.readableBytesView), W.png + [1])
            let filesOnly = try await api.object(.post, chats, as: H.bob, multipart: W.messageForm(nil, files: 1))
            JSON.assertKeys(filesOnly, W.channelChatKeys)
            XCTAssertTrue(filesOnly["content"] is NSNull, "files only: content null")

            try await api.expect("E11", .post, chats, as: H.alice, json: ContentRequest(content: "  "), "nothing to send")
            try await api.expect("E11", .post, chats, as: H.alice, multipart: W.messageForm("많다", files: 6), "more than 5 files")
            try await api.expect("E11", .post, chats, as: H.alice, json: ContentRequest(content: String(repeating: "가", count: 5001)))
            try await api.expect("E13", .post, chats, as: H.carol, json: ContentRequest(content: "외부인"), "outsiders")
            try await api.expect("E13", .get, chats, as: H.carol)

            // Cursor sync: strictly after `cursor_date`; missing, empty or valueless = all.
            for query in ["", "?cursor_date=", "?cursor_date"] {
                let all = try await api.array(.get, chats + query, as: H.bob)
                XCTAssertEqual(all.map { $0["chat_id"] as? String }, [first, withFiles, filesOnly].map { $0["chat_id"] as? String }, query)
                all.forEach { JSON.assertKeys($0, W.channelChatKeys) }
            }
            let cursor = try JSON.string(first, "createdAt")
            let after = try await api.array(.get, chats + "?cursor_date=\(cursor)", as: H.bob)
            XCTAssertEqual(after.map { $0["chat_id"] as? String }, [withFiles, filesOnly].map { $0["chat_id"] as? String })
            try await api.expect("E11", .get, chats + "?cursor_date=yesterday", as: H.bob)

            // Unreads: others' messages strictly after `after`.
            let unreads = "/v1/workspaces/\(id)/channels/\(general)/unreads"
            let bobs = try await api.object(.get, unreads, as: H.bob)
            JSON.assertKeys(bobs, ["room_id", "channel_id", "name", "count"])
            XCTAssertEqual(bobs["count"] as? Int, 2, "alice's two; bob's own message is not unread")
            XCTAssertEqual(bobs["name"] as? String, "일반")
            let bobsLater = try await api.object(.get, unreads + "?after=\(cursor)", as: H.bob)
            XCTAssertEqual(bobsLater["count"] as? Int, 1)
            let alices = try await api.object(.get, unreads + "?after=\(cursor)", as: H.alice)
            XCTAssertEqual(alices["count"] as? Int, 1, "bob's files-only message")
            try await api.expect("E11", .get, unreads + "?after=12", as: H.alice)
            try await api.expect("E13", .get, unreads, as: H.carol)
        }
    }
}
