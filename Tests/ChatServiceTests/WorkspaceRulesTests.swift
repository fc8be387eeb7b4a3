import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// A workspace's changes of state, once for both engines.
final class WorkspaceRulesTests: XCTestCase {
    private let pending = WorkspaceRecord(
        id: "w", appID: "a", name: "팀", description: nil, coverImage: "", ownerID: "alice", state: .pending, createdAt: 1)

    func testAPurchaseActivatesOnceAndOnlyWhilePending() throws {
        let active = try WorkspaceRules.activated(pending)
        XCTAssertEqual(active.state, .active)
        XCTAssertThrowsStoreError(.notFound("the workspace purchase was given up"), try WorkspaceRules.activated(active))
        XCTAssertThrowsStoreError(.notFound("the workspace purchase was given up"), try WorkspaceRules.activated(nil))
    }

    func testAWorkspacePassesOnlyToAMember() throws {
        XCTAssertEqual(try WorkspaceRules.transferred(pending, to: "bob", isMember: true).ownerID, "bob")
        XCTAssertThrowsStoreError(.notFound("the new owner is not a member"), try WorkspaceRules.transferred(pending, to: "carol", isMember: false))
        XCTAssertThrowsStoreError(.notFound("workspace not found"), try WorkspaceRules.transferred(nil, to: "bob", isMember: true))
    }
}
