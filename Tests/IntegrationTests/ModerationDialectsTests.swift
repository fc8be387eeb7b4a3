import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Issue 35's other two apps, every process real: a GLINT-style (`lslp`, empty auth error bodies)
/// post and a Freeworkers-style (`slp`) channel message hidden by an admin of both apps, and their
/// authors banned — refused in each dialect (lslp 403, refresh 418; slp 400 E05, refresh E06); an
/// operator's cookie opens no app route.
final class ModerationDialectsTests: XCTestCase {
    static let glintKey = "moderation-glint-key", workspaceKey = "moderation-slp-key"

    func testAnLslpPostAndAnSlpChannelMessage() async throws {
        let suite = try await AuthAndGateway.start(with: [.market, .chat, .admin]) { dataDirectory in
            for arguments in [
                ["--name", "GLINT", "--profile", "lslp", "--key", Self.glintKey, "--refresh-with-access-token-only", "--empty-auth-error-bodies"],
                ["--name", "Freeworkers", "--profile", "slp", "--key", Self.workspaceKey],
            ] {
                let create = try RunningProcess(
                    "auth-svc", arguments: ["apps", "create"] + arguments, environment: ["DATA_DIR": dataDirectory, "PATH": "/usr/bin:/bin"])
                let status = try await create.exitStatus()
                XCTAssertEqual(status, 0, create.transcript)
            }
        }
        do {
            let admin = try await ModerationThroughGatewayTests.addOperator(
                suite.dataDirectory, email: "admin@example.com", role: "admin", apps: "GLINT,Freeworkers")
            let session = try await ModerationThroughGatewayTests.signIn(suite.gatewayURL, admin)
            func operate(_ method: HTTPMethod, _ path: String, json: String? = nil) async throws -> HTTPProbe.Answer {
                var headers = [("Cookie", session.cookie), ("X-CSRF-Token", session.csrf)]
                if json != nil { headers.append(("Content-Type", "application/json")) }
                return try await HTTPProbe.call(
                    method, suite.gatewayURL + "/admin/api" + path, headers: headers, body: json.map { ByteBuffer(string: $0) })
            }
            let apps = try JSONCoding.decoder.decode([AdminAppAnswer].self, from: try await operate(.GET, "/apps").body)
            let glint = try XCTUnwrap(apps.first { $0.name == "GLINT" }?.id),
                workspaceApp = try XCTUnwrap(apps.first { $0.name == "Freeworkers" }?.id)

            // GLINT: a post hidden, its author banned.
            let joined = try await suite.call(
                .POST, "/v1/users/join", key: Self.glintKey, json: #"{"email":"poster@glint.app","password":"pass1234!","nick":"poster"}"#)
            let poster = try JSONDecoder().decode(AuthAnswer.self, from: joined.body)
            let reader = try JSONDecoder().decode(
                AuthAnswer.self,
                from: try await suite.call(
                    .POST, "/v1/users/join", key: Self.glintKey, json: #"{"email":"reader@glint.app","password":"pass1234!","nick":"reader"}"#
                ).body)
            let post = try JSON.string(
                try JSON.object(
                    try await suite.call(
                        .POST, "/v1/posts", key: Self.glintKey, token: poster.accessToken,
                        json: #"{"category":"daily","title":"신고될 글","price":0,"content":"abuse"}"#
                    ).body), "post_id")
            let hidden = try await operate(.POST, "/apps/\(glint)/content/post/\(post)/hide", json: #"{"reason":"abuse"}"#)
            XCTAssertEqual(hidden.status, 200, hidden.body.text)
            let gone = try await suite.call(.GET, "/v1/posts/\(post)", key: Self.glintKey, token: reader.accessToken)
            XCTAssertEqual(gone.status, 404, "hidden at once for readers")
            let feed = try JSON.object(try await suite.call(.GET, "/v1/posts", key: Self.glintKey, token: reader.accessToken).body)
            XCTAssertEqual((feed["data"] as? [Any])?.count, 0)
            let ban = try await operate(.POST, "/apps/\(glint)/users/\(poster.userID)/ban", json: #"{"reason":"spam"}"#)
            XCTAssertEqual(ban.status, 200, ban.body.text)
            let refused = await HTTPProbe.eventually(within: .seconds(1), every: .milliseconds(10)) { () -> HTTPProbe.Answer? in
                let answer = try? await suite.call(.GET, "/v1/posts", key: Self.glintKey, token: poster.accessToken)
                return answer?.status == 403 ? answer : nil
            }
            XCTAssertEqual(refused?.body.readableBytes, 0, "GLINT's flag: 403 with an empty body")
            let profile = try await suite.call(.GET, "/v1/users/me/profile", key: Self.glintKey, token: poster.accessToken)
            XCTAssertEqual(profile.status, 403)
            let refresh = try await suite.call(
                .GET, "/v1/auth/refresh", key: Self.glintKey, token: poster.accessToken, headers: [("RefreshToken", poster.refreshToken)])
            XCTAssertEqual(refresh.status, 418, "a banned user's session ends")
            let login = try await suite.call(
                .POST, "/v1/users/login", key: Self.glintKey, json: #"{"email":"poster@glint.app","password":"pass1234!"}"#)
            XCTAssertEqual(login.status, 403)

            // An operator's cookie opens no app route: no key is 420, a key without a token 401.
            let noKey = try await HTTPProbe.call(.GET, suite.gatewayURL + "/v1/posts", headers: [("Cookie", session.cookie)])
            XCTAssertEqual(noKey.status, 420)
            let cookieOnly = try await suite.call(.GET, "/v1/posts", key: Self.glintKey, headers: [("Cookie", session.cookie)])
            XCTAssertEqual(cookieOnly.status, 401)
            // An app user's token opens nothing under /admin/api.
            let appToken = try await HTTPProbe.call(
                .GET, suite.gatewayURL + "/admin/api/apps", headers: [("Authorization", reader.accessToken), ("SeSACKey", Self.glintKey)])
            XCTAssertEqual(appToken.status, 401)

            // Freeworkers: a channel message hidden, its author banned.
            func slpJoin(_ name: String) async throws -> SlpAuthOut {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", key: Self.workspaceKey,
                    json: #"{"email":"\#(name)@fw.app","password":"pass1234!","nickname":"\#(name)"}"#)
                XCTAssertEqual(answer.status, 200, answer.body.text)
                return try JSONDecoder().decode(SlpAuthOut.self, from: answer.body)
            }
            let alice = try await slpJoin("alice"), bob = try await slpJoin("bob")
            let (aliceToken, bobToken) = (alice.extra.token.accessToken, bob.extra.token.accessToken)
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 64)
            let form = MultipartBody(parts: [
                .field("name", "라운지"), .field("description", ""), .file("image", filename: "cover.jpg", contentType: "image/jpeg", bytes: png),
            ])
            let created = try await HTTPProbe.call(
                .POST, suite.gatewayURL + "/v1/workspaces",
                headers: [("SeSACKey", Self.workspaceKey), ("Authorization", aliceToken), ("Content-Type", form.contentType)], body: form.buffer)
            XCTAssertEqual(created.status, 200, created.body.text)
            let workspace = try JSON.string(try JSON.object(created.body), "workspace_id")
            _ = try await suite.call(
                .POST, "/v1/workspaces/\(workspace)/members", key: Self.workspaceKey, token: aliceToken, json: #"{"email":"bob@fw.app"}"#)
            let channelList = try await suite.call(.GET, "/v1/workspaces/\(workspace)/channels", key: Self.workspaceKey, token: bobToken)
            let channels = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(channelList.body.readableBytesView)) as? [[String: Any]])
            let channel = try JSON.string(try XCTUnwrap(channels.first), "channel_id")
            let chats = "/v1/workspaces/\(workspace)/channels/\(channel)/chats"
            let sent = try JSON.object(
                try await suite.call(.POST, chats, key: Self.workspaceKey, token: aliceToken, json: #"{"content":"나쁜 말"}"#).body)
            let message = try JSON.string(sent, "chat_id")
            _ = try await suite.call(.POST, chats, key: Self.workspaceKey, token: bobToken, json: #"{"content":"괜찮은 말"}"#)
            let hide = try await operate(.POST, "/apps/\(workspaceApp)/content/message/\(message)/hide", json: #"{"reason":"욕설"}"#)
            XCTAssertEqual(hide.status, 200, hide.body.text)
            let read = try await suite.call(.GET, chats + "?cursor_date=", key: Self.workspaceKey, token: bobToken)
            let history = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(read.body.readableBytesView)) as? [[String: Any]], read.body.text)
            XCTAssertEqual(history.compactMap { $0["content"] as? String }, ["괜찮은 말"], "the hidden message is gone from the channel")
            let slpBan = try await operate(.POST, "/apps/\(workspaceApp)/users/\(alice.base.userID)/ban", json: #"{"reason":"욕설"}"#)
            XCTAssertEqual(slpBan.status, 200)
            let e05 = await HTTPProbe.eventually(within: .seconds(1), every: .milliseconds(10)) { () -> HTTPProbe.Answer? in
                let answer = try? await suite.call(.GET, chats + "?cursor_date=", key: Self.workspaceKey, token: aliceToken)
                return answer?.status == 400 ? answer : nil
            }
            XCTAssertEqual(try JSON.object(try XCTUnwrap(e05).body) as? [String: String], ["errorCode": "E05"])
            let slpRefresh = try await suite.call(
                .GET, "/v1/auth/refresh", key: Self.workspaceKey, token: aliceToken, headers: [("RefreshToken", alice.extra.token.refreshToken)])
            XCTAssertEqual(try JSON.object(slpRefresh.body) as? [String: String], ["errorCode": "E06"])
            let bobStill = try await suite.call(.GET, chats + "?cursor_date=", key: Self.workspaceKey, token: bobToken)
            XCTAssertEqual(bobStill.status, 200, "only the banned user is refused")
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }
}
