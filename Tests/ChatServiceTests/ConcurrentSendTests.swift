import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// Many messages to one room at once (the store's contended path on PostgreSQL, where the room
/// moved on between the read and the write): each stored once, answered 200, in distinct times.
final class ConcurrentSendTests: XCTestCase {
    typealias H = ChatHarness

    func testConcurrentMessagesToOneRoomAreAllStored() async throws {
        let harness = try await H.make()
        try await harness.app.test(.router) { client in
            let room = try await harness.room(client, H.alice, with: H.bob)
            let headers = try await harness.headers(H.bob)
            let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String).self) { group in
                for n in 0..<40 {
                    group.addTask {
                        let response = try await client.execute(
                            uri: "/v1/chats/\(room)", method: .post, headers: headers,
                            body: JSONCoding.encode(SendChatRequest(content: "동시에 \(n)")))
                        return (response.status, String(buffer: response.body))
                    }
                }
                return try await group.reduce(into: [(HTTPResponse.Status, String)]()) { $0.append($1) }
            }
            XCTAssertEqual(statuses.filter { $0.0 != .ok }.map(\.1), [], "every message answered 200")
            let history = try await client.execute(uri: "/v1/chats/\(room)", method: .get, headers: try await harness.headers(H.alice))
            let data = try XCTUnwrap(try JSON.object(history.body)["data"] as? [[String: Any]])
            XCTAssertEqual(data.count, 40)
            XCTAssertEqual(Set(data.compactMap { $0["createdAt"] as? String }).count, 40, "strictly increasing times")
        }
    }
}
