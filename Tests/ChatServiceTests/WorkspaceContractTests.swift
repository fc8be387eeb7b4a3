import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// API.md §8 workspaces and members, key by key, with every error code the table names.
final class WorkspaceContractTests: XCTestCase {
    typealias H = ChatHarness
    typealias W = WorkspaceFixtures

    func testCreatingAWorkspaceCostsCoinsOnceAndAnswersItsShapes() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            let created = try await api.createWorkspace("새싹 라운지", as: H.alice)
            JSON.assertKeys(created, W.workspaceKeys)
            XCTAssertTrue(created["description"] is NSNull, "\"\" is no description, answered as null")
            XCTAssertEqual(created["owner_id"] as? String, H.alice)
            XCTAssertEqual(created["name"] as? String, "새싹 라운지")
            XCTAssertNotNil(GlintDate.milliseconds(from: try JSON.string(created, "createdAt")))
            let cover = try JSON.string(created, "coverImage")
            XCTAssertTrue(cover.hasPrefix("/data/workspaces/") && cover.hasSuffix(".png"), cover)
            let served = try await client.execute(uri: "/v1" + cover, method: .get, headers: TestEnvironment.fields(app: H.openApp))
            XCTAssertEqual(Array(served.body.readableBytesView), W.png)
            XCTAssertEqual(harness.wallet.balance(H.alice), 50, "SLP_WORKSPACE_COST left the wallet")
            let id = try JSON.string(created, "workspace_id")

            let list = try await api.array(.get, "/v1/workspaces", as: H.alice)
            XCTAssertEqual(list.count, 1)
            JSON.assertKeys(list[0], W.workspaceKeys)

            let detail = try await api.object(.get, "/v1/workspaces/\(id)", as: H.alice)
            JSON.assertKeys(detail, W.workspaceKeys.union(["channels", "workspaceMembers"]))
            let channels = try XCTUnwrap(detail["channels"] as? [[String: Any]])
            XCTAssertEqual(channels.map { $0["name"] as? String }, ["일반"])
            JSON.assertKeys(channels[0], ["channel_id", "name", "owner_id", "createdAt"])
            let members = try XCTUnwrap(detail["workspaceMembers"] as? [[String: Any]])
            XCTAssertEqual(members.count, 1)
            JSON.assertKeys(members[0], W.userKeys)
            XCTAssertEqual(members[0]["email"] as? String, H.email(H.alice))
            XCTAssertTrue(members[0]["profileImage"] is NSNull)

            // The same name again: E12 before any coin moves (a retried create never pays twice).
            try await api.expect("E12", .post, "/v1/workspaces", as: H.alice, multipart: W.workspaceForm("새싹 라운지"))
            XCTAssertEqual(harness.wallet.spendCalls, 1)
            XCTAssertEqual(harness.wallet.balance(H.alice), 50)

            _ = try await api.createWorkspace("둘째", as: H.alice, description: "설명")
            XCTAssertEqual(harness.wallet.balance(H.alice), 0)
            try await api.expect("E21", .post, "/v1/workspaces", as: H.alice, multipart: W.workspaceForm("셋째"))
            let afterShort = try await api.array(.get, "/v1/workspaces", as: H.alice)
            XCTAssertEqual(afterShort.count, 2, "nothing created when short")
            harness.wallet.setBalance(H.alice, 50)
            _ = try await api.createWorkspace("셋째", as: H.alice)  // a name refused for want of coins is free again

            for (label, form) in [
                ("no image", W.workspaceForm("이미지 없음", image: nil)), ("empty name", W.workspaceForm("")),
                ("31 characters", W.workspaceForm(String(repeating: "가", count: 31))),
                ("not an image", W.workspaceForm("가짜", image: Array("text".utf8))),
            ] {
                try await api.expect("E11", .post, "/v1/workspaces", as: H.bob, multipart: form, label)
            }
            try await api.expect("E11", .post, "/v1/workspaces", as: H.bob, json: NameDescriptionRequest(name: "JSON"), "JSON instead of multipart")
            XCTAssertEqual(harness.wallet.balance(H.bob), 100, "refused creations cost nothing")

            try await api.expect("E13", .get, "/v1/workspaces/\(id)", as: H.bob, "invisible to outsiders")
            try await api.expect("E13", .get, "/v1/workspaces/6740369b3a36e82f532ec7ff", as: H.bob)
            try await api.expect("E13", .get, "/v1/workspaces/not-an-id", as: H.bob)
            let bobs = try await api.array(.get, "/v1/workspaces", as: H.bob)
            XCTAssertEqual(bobs.count, 0)
            let otherProfile = try await api.call(.get, "/v1/workspaces", as: H.alice, profile: "lslp")
            XCTAssertEqual(otherProfile.status.code, 444, "§8 routes exist for slp apps only")
        }
    }

    func testMembersOwnershipAndLeaving() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            let id = try JSON.string(try await api.createWorkspace("팀", as: H.alice), "workspace_id")
            let base = "/v1/workspaces/\(id)"

            try await api.expect("E13", .post, base + "/members", as: H.bob, json: InviteRequest(email: H.email(H.carol)), "outsiders see nothing")
            let invited = try await api.object(.post, base + "/members", as: H.alice, json: InviteRequest(email: H.email(H.bob)))
            JSON.assertKeys(invited, W.userKeys)
            XCTAssertEqual(invited["user_id"] as? String, H.bob)
            XCTAssertEqual(invited["nickname"] as? String, H.nick(H.bob))
            try await api.expect("E12", .post, base + "/members", as: H.alice, json: InviteRequest(email: H.email(H.bob)), "already a member")
            try await api.expect("E13", .post, base + "/members", as: H.alice, json: InviteRequest(email: "nobody@glint.test"), "no such user")
            try await api.expect("E11", .post, base + "/members", as: H.alice, json: InviteRequest(email: "not-an-email"))
            try await api.expect("E14", .post, base + "/members", as: H.bob, json: InviteRequest(email: H.email(H.carol)), "members may not invite")

            let members = try await api.array(.get, base + "/members", as: H.bob)
            XCTAssertEqual(members.map { $0["user_id"] as? String }, [H.alice, H.bob])
            members.forEach { JSON.assertKeys($0, W.userKeys) }
            JSON.assertKeys(try await api.object(.get, base + "/members/\(H.alice)", as: H.bob), W.userKeys)
            try await api.expect("E13", .get, base + "/members/\(H.carol)", as: H.bob)
            let bobsChannels = try await api.array(.get, base + "/my-channels", as: H.bob)
            XCTAssertEqual(bobsChannels.map { $0["name"] as? String }, ["일반"], "a new member joins 일반")

            // Changes: owner only; "" leaves a field; nothing changed is E12.
            try await api.expect("E14", .put, base, as: H.bob, json: NameDescriptionRequest(name: "탈취"))
            try await api.expect("E14", .delete, base, as: H.bob)
            let renamed = try await api.object(.put, base, as: H.alice, json: NameDescriptionRequest(name: "새 팀", description: ""))
            JSON.assertKeys(renamed, W.workspaceKeys)
            XCTAssertEqual(renamed["name"] as? String, "새 팀")
            XCTAssertTrue(renamed["description"] is NSNull)
            try await api.expect("E12", .put, base, as: H.alice, json: NameDescriptionRequest(name: "새 팀", description: ""), "nothing changed")
            try await api.expect("E11", .put, base, as: H.alice, json: NameDescriptionRequest(name: String(repeating: "a", count: 31)))
            let oldCover = try JSON.string(renamed, "coverImage")
            let recovered = try await api.object(
                .put, base, as: H.alice,
                multipart: MultipartBody(parts: [
                    .field("name", ""), .file("image", filename: "new.png", contentType: "image/png", bytes: W.png + [1]),
                ]))
            XCTAssertEqual(recovered["name"] as? String, "새 팀")
            XCTAssertNotEqual(recovered["coverImage"] as? String, oldCover)
            let gone = try await client.execute(uri: "/v1" + oldCover, method: .get, headers: TestEnvironment.fields(app: H.openApp))
            XCTAssertEqual(gone.status, .notFound, "a replaced cover is removed")

            // Ownership: to members only; then the old owner may leave and the new one may not.
            try await api.expect("E13", .put, base + "/transfer/ownership", as: H.alice, json: OwnershipRequest(ownerID: H.carol), "not a member")
            try await api.expect("E14", .put, base + "/transfer/ownership", as: H.bob, json: OwnershipRequest(ownerID: H.bob))
            try await api.expect("E15", .get, base + "/exit", as: H.alice, "the owner cannot leave")
            let transferred = try await api.object(.put, base + "/transfer/ownership", as: H.alice, json: OwnershipRequest(ownerID: H.bob))
            JSON.assertKeys(transferred, W.workspaceKeys)
            XCTAssertEqual(transferred["owner_id"] as? String, H.bob)
            let remaining = try await api.array(.get, base + "/exit", as: H.alice)
            XCTAssertEqual(remaining.count, 0, "exit answers the workspaces still belonged to")
            try await api.expect("E13", .get, base, as: H.alice, "a leaver no longer sees it")
            try await api.expect("E15", .get, base + "/exit", as: H.bob)

            let deleted = try await api.object(.delete, base, as: H.bob)
            XCTAssertEqual(deleted.count, 0, "{}")
            try await api.expect("E13", .get, base, as: H.bob)
            let left = try await api.array(.get, "/v1/workspaces", as: H.bob)
            XCTAssertEqual(left.count, 0)
        }
    }

    /// Users of another app (even one with the same user id) see nothing of a workspace.
    func testAppsNeverSeeEachOthersWorkspaces() async throws {
        let harness = try await H.make()
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            let (id, general, room) = try await api.aliceAndBob()
            var other = WorkspaceTestClient(client: client, harness: harness)
            other.app = H.appID
            let theirs = try await other.array(.get, "/v1/workspaces", as: H.alice)
            XCTAssertEqual(theirs.count, 0)
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/workspaces/\(id)"), (.get, "/v1/workspaces/\(id)/members"), (.get, "/v1/workspaces/\(id)/channels"),
                (.get, "/v1/workspaces/\(id)/channels/\(general)/chats"), (.get, "/v1/workspaces/\(id)/dms/\(room)/chats"),
                (.delete, "/v1/workspaces/\(id)"), (.get, "/v1/workspaces/\(id)/exit"),
            ] {
                try await other.expect("E13", method, path, as: H.alice, "\(method) \(path) from another app")
            }
            try await other.expect("E13", .post, "/v1/workspaces/\(id)/channels/\(general)/chats", as: H.alice, json: ContentRequest(content: "침입"))
            try await other.expect("E13", .post, "/v1/workspaces/\(id)/members", as: H.alice, json: InviteRequest(email: H.email(H.carol)))
            let stillThere = try await api.object(.get, "/v1/workspaces/\(id)", as: H.alice)
            XCTAssertEqual((stillThere["workspaceMembers"] as? [Any])?.count, 2)
        }
    }
}
