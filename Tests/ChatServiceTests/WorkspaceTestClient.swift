import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

/// §8 calls as a workspace (`slp`) app makes them through the gateway (which tells chat-svc the
/// app's profile), with the answers' JSON and canonical error codes unpacked.
struct WorkspaceTestClient {
    typealias H = ChatHarness
    typealias W = WorkspaceFixtures

    let client: any TestClientProtocol
    let harness: ChatHarness
    /// The workspace app: `socket_auth_optional`, as Freeworkers needs.
    var app = H.openApp

    /// A JSON body, a multipart one, or none.
    func call(
        _ method: HTTPRequest.Method, _ uri: String, as user: String, json: (any Encodable)? = nil, multipart: MultipartBody? = nil,
        profile: String = "slp"
    ) async throws -> TestResponse {
        var extra = [(InternalHeader.appProfile, profile), ("Authorization", try await harness.token(user, app: app))]
        if json != nil { extra.append(("Content-Type", "application/json")) }
        if let multipart { extra.append(("Content-Type", multipart.contentType)) }
        return try await client.execute(
            uri: uri, method: method, headers: TestEnvironment.fields(app: app, extra: extra),
            body: json.map { JSONCoding.encode($0) } ?? multipart?.buffer)
    }

    /// A 200 answer's JSON object.
    func object(
        _ method: HTTPRequest.Method, _ uri: String, as user: String, json: (any Encodable)? = nil, multipart: MultipartBody? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [String: Any] {
        let response = try await call(method, uri, as: user, json: json, multipart: multipart)
        XCTAssertEqual(response.status, .ok, response.body.text, file: file, line: line)
        return try JSON.object(response.body, file: file, line: line)
    }

    /// A 200 answer's bare JSON array of objects.
    func array(
        _ method: HTTPRequest.Method, _ uri: String, as user: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [[String: Any]] {
        let response = try await call(method, uri, as: user)
        XCTAssertEqual(response.status, .ok, response.body.text, file: file, line: line)
        let value = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        return try XCTUnwrap(value as? [[String: Any]], "not a bare array: \(response.body.text)", file: file, line: line)
    }

    /// Asserts the call is refused with the `slp` code (E13, …) the gateway will answer.
    func expect(
        _ code: String, _ method: HTTPRequest.Method, _ uri: String, as user: String, json: (any Encodable)? = nil, multipart: MultipartBody? = nil,
        _ label: String = "", file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let response = try await call(method, uri, as: user, json: json, multipart: multipart)
        let error = try? JSONCoding.decoder.decode(CanonicalError.self, from: Data(response.body.readableBytesView))
        XCTAssertEqual(error?.code.slpCode, code, "\(label) \(response.status) \(response.body.text)", file: file, line: line)
    }

    /// A new workspace of `owner` (multipart, as the app sends it).
    func createWorkspace(
        _ name: String, as owner: String, description: String = "", file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [String: Any] {
        try await object(.post, "/v1/workspaces", as: owner, multipart: W.workspaceForm(name, description: description), file: file, line: line)
    }

    func invite(_ user: String, to workspace: String, as owner: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        _ = try await object(
            .post, "/v1/workspaces/\(workspace)/members", as: owner, json: InviteRequest(email: H.email(user)), file: file, line: line)
    }

    /// Alice's workspace with Bob invited: its id, its default channel and their DM room.
    func aliceAndBob() async throws -> (id: String, general: String, room: String) {
        let id = try JSON.string(try await createWorkspace("팀", as: H.alice), "workspace_id")
        try await invite(H.bob, to: id, as: H.alice)
        let general = try await defaultChannel(of: id, as: H.alice)
        let room = try JSON.string(
            try await object(.post, "/v1/workspaces/\(id)/dms", as: H.alice, json: OpenRoomRequest(opponentID: H.bob)), "room_id")
        return (id, general, room)
    }

    /// The id of the workspace's default channel.
    func defaultChannel(of workspace: String, as user: String) async throws -> String {
        let channels = try await array(.get, "/v1/workspaces/\(workspace)/channels", as: user)
        return try JSON.string(try XCTUnwrap(channels.first { $0["name"] as? String == "일반" }), "channel_id")
    }
}
