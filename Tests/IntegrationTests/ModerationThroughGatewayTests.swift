import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Issue 35 end to end, every process real: a QuoteHub reader reports a story; a moderator of
/// QuoteHub (added with `glint admin add`, signed in with a TOTP code computed here) sees it in
/// the queue with its age, hides the story and bans its author through `/admin/api`; within one
/// second the author's next request and open socket are refused, the story is gone for guests and
/// searches, and the audit log holds both actions under the moderator's id.
final class ModerationThroughGatewayTests: XCTestCase {
    struct Operator {
        var id: String
        var email: String
        var password: String
        var totp: TOTP
    }

    /// `glint admin add`, as the README says to run it.
    static func addOperator(_ dataDirectory: String, email: String, role: String, apps: String? = nil) async throws -> Operator {
        let process = try RunningProcess(
            "glint",
            arguments: ["admin", "add", "--data-dir", dataDirectory, "--email", email, "--role", role] + (apps.map { ["--apps", $0] } ?? []),
            environment: ["PATH": "/usr/bin:/bin"])
        let status = try await process.exitStatus()
        XCTAssertEqual(status, 0, process.transcript)
        let lines = process.transcript.split(separator: "\n").map(String.init)
        let password = try XCTUnwrap(lines.first { $0.hasPrefix("password: ") }).dropFirst("password: ".count)
        let uri = try XCTUnwrap(lines.first { $0.hasPrefix("otpauth://totp/") })
        let secret = try XCTUnwrap(URLComponents(string: uri)?.queryItems?.first { $0.name == "secret" }?.value)
        return Operator(id: "", email: email, password: String(password), totp: try XCTUnwrap(TOTP(base32: secret)))
    }

    /// A QuoteHub author's public story ("신고될 이야기") reported by a reader for "욕설".
    /// A real 16×16 PNG (a browser draws it), the reported story's photo.
    static let photo: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00,
        0x00, 0x10, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x91, 0x68, 0x36, 0x00, 0x00, 0x00, 0x16, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63,
        0x38, 0x61, 0x63, 0x43, 0x12, 0x62, 0x18, 0xD5, 0x30, 0xAA, 0x61, 0xF8, 0x6A, 0x00, 0x00, 0xAB, 0xC6, 0x40, 0x10, 0x20, 0x7A, 0xC9,
        0xFB, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    static func reportedStory(
        _ replay: QuoteHubReplay
    ) async throws -> (
        author: (id: String, token: String, isNew: Bool), reader: (id: String, token: String, isNew: Bool), story: String
    ) {
        let author = try await replay.signIn("001.author"), reader = try await replay.signIn("002.reader")
        let search = try await replay.object(.GET, "/book/search?query=%EA%B9%80%EC%9C%A0%EC%A0%95&page=1")
        let bookID = try JSON.string(try XCTUnwrap((search["documents"] as? [[String: Any]])?.first), "_id")
        // As the app sends a story with a photo: multipart, the image as `storyImage`.
        let form = MultipartBody(parts: [
            .field("bookId", bookID), .field("quotes", #"[{"quote":"봄봄","page":1}]"#), .field("isPublic", "true"),
            .field("content", "신고될 이야기"), .file("storyImage", filename: "photo.png", contentType: "image/png", bytes: photo),
        ])
        let created = try await HTTPProbe.call(
            .POST, replay.base + "/bookstories/createBookStory",
            headers: [("Authorization", "Bearer " + author.token), ("Content-Type", form.contentType)], body: form.buffer)
        XCTAssertEqual(created.status, 201, created.body.text)
        let story = try JSON.string(try XCTUnwrap(try JSON.object(created.body)["data"] as? [String: Any]), "_id")
        _ = try await replay.data(
            .POST, "/block-report/report", reader.token, json: #"{"targetId":"\#(story)","type":"bookstory","reason":"욕설"}"#)
        return (author, reader, story)
    }

    /// Signs in through the gateway: the session cookie and CSRF token.
    static func signIn(_ gateway: String, _ op: Operator) async throws -> (cookie: String, csrf: String, id: String) {
        let code = op.totp.code(step: TOTP.step(at: Date()))
        let answer = try await HTTPProbe.call(
            .POST, gateway + "/admin/api/session", headers: [("Content-Type", "application/json")],
            body: ByteBuffer(string: #"{"email":"\#(op.email)","password":"\#(op.password)","code":"\#(code)"}"#))
        XCTAssertEqual(answer.status, 200, answer.body.text)
        let cookie = try XCTUnwrap(answer.headers.first(name: "set-cookie")).split(separator: ";")[0]
        let session = try JSONCoding.decoder.decode(OperatorSessionAnswer.self, from: answer.body)
        return (String(cookie), session.csrfToken, session.operator.id)
    }

    func testAQuoteHubModeratorHidesAReportedStoryAndBansItsAuthor() async throws {
        let quotehub = try await QuoteHubSuite.start(with: [.market, .chat, .admin])
        do {
            let suite = quotehub.suite, replay = quotehub.replay, gateway = suite.gatewayURL
            let moderator = try await Self.addOperator(suite.dataDirectory, email: "mod@example.com", role: "moderator", apps: "QuoteHub")
            let owner = try await Self.addOperator(suite.dataDirectory, email: "owner@example.com", role: "owner")

            // The author writes a story; a reader reports it.
            let (author, reader, story) = try await Self.reportedStory(replay)

            // The moderator signs in and finds it in QuoteHub's queue.
            let session = try await Self.signIn(gateway, moderator)
            func admin(_ method: HTTPMethod, _ path: String, json: String? = nil, as cookie: String? = nil) async throws -> HTTPProbe.Answer {
                var headers = [("Cookie", cookie ?? session.cookie), ("X-CSRF-Token", session.csrf)]
                if json != nil { headers.append(("Content-Type", "application/json")) }
                return try await HTTPProbe.call(method, gateway + "/admin/api" + path, headers: headers, body: json.map { ByteBuffer(string: $0) })
            }
            let apps = try JSONCoding.decoder.decode([AdminAppAnswer].self, from: try await admin(.GET, "/apps").body)
            let appID = try XCTUnwrap(apps.first { $0.name == "QuoteHub" }?.id, "\(apps)")
            XCTAssertEqual(apps.map(\.name), ["QuoteHub"], "a QuoteHub moderator sees QuoteHub alone")
            let queue = try await admin(.GET, "/apps/\(appID)/reports?state=open")
            XCTAssertEqual(queue.status, 200, queue.body.text)
            let group = try XCTUnwrap(try JSONCoding.decoder.decode([ReportGroupAnswer].self, from: queue.body).first)
            XCTAssertEqual(group.targetId, story)
            XCTAssertEqual(group.targetType, "bookstory")
            XCTAssertEqual(group.reasons, ["욕설"])
            XCTAssertEqual(group.authorId, author.id)
            XCTAssertEqual(group.preview, "신고될 이야기")
            // Its photo, as the console shows it: read through admin-svc with the session alone.
            let stored = try XCTUnwrap(group.files.first, "the story's photo")
            let image = try await HTTPProbe.call(
                .GET, gateway + "/admin/apps/\(appID)/files" + stored.dropFirst("/data".count), headers: [("Cookie", session.cookie)])
            XCTAssertEqual(image.status, 200, image.body.text)
            XCTAssertEqual(image.headers.first(name: "content-type"), "image/png")
            XCTAssertEqual(Array(image.body.readableBytesView), Self.photo)
            let anonymous = try await HTTPProbe.call(.GET, gateway + "/admin/apps/\(appID)/files" + stored.dropFirst("/data".count))
            XCTAssertEqual(
                anonymous.headers.first(name: "content-type"), "text/html; charset=utf-8", "no session: the sign-in page (the redirect followed)")
            XCTAssertGreaterThanOrEqual(group.ageSeconds, 0)
            XCTAssertLessThan(group.ageSeconds, 600)

            // The author has a socket open.
            let socket = try await SocketIOTestClient.open(gateway, transport: .websocket, namespace: "/", auth: ["token": author.token])
            let connected = try await socket.next()
            XCTAssertEqual(connected.type, 0, "\(connected)")

            let hidden = try await admin(.POST, "/apps/\(appID)/reports/story/\(story)/hide", json: #"{"reason":"욕설"}"#)
            XCTAssertEqual(hidden.status, 200, hidden.body.text)
            let banned = try await admin(.POST, "/apps/\(appID)/users/\(author.id)/ban", json: #"{"reason":"반복된 욕설"}"#)
            XCTAssertEqual(banned.status, 200, banned.body.text)
            let bannedAt = ContinuousClock.now

            // Within a second: auth-svc's and market-svc's routes refuse the author (quotehub: 403 envelope), the socket closes.
            let refusedEverywhere = await HTTPProbe.eventually(within: .seconds(1), every: .milliseconds(10)) { () -> Duration? in
                guard let profile = try? await replay.call(.GET, "/profile", author.token), profile.status == 403,
                    let count = try? await replay.call(.GET, "/bookstories/count", author.token), count.status == 403
                else { return nil }
                return ContinuousClock.now - bannedAt
            }
            let took = try XCTUnwrap(refusedEverywhere, "the ban did not reach auth-svc and market-svc within a second")
            print("ban reached auth-svc and market-svc in \(took)")
            try replay.refused(403, try await replay.call(.GET, "/bookstories/my", author.token))
            let closed = await HTTPProbe.eventually(within: .seconds(1), every: .milliseconds(10)) {
                socket.isClosed ? ContinuousClock.now - bannedAt : nil
            }
            XCTAssertNotNil(closed, "the author's socket is closed within a second")
            print("the author's socket closed after \(closed.map { "\($0)" } ?? "never")")
            let signInAgain = try await replay.call(
                .POST, "/auth/apple/callback",
                json: #"{"code":"\#(quotehub.apple.issueCode(subject: "001.author", clientID: QuoteHubThroughGatewayTests.clientID))"}"#)
            XCTAssertEqual(signInAgain.status, 403, "sign-in refuses a banned user: \(signInAgain.body.text)")

            // The story is gone for guests, readers and searches.
            try replay.refused(404, try await replay.call(.GET, "/bookstories/\(story)"))
            try replay.refused(404, try await replay.call(.GET, "/bookstories/\(story)", reader.token))
            let (publicIDs, _) = try await replay.page("/bookstories/public?page=1&pageSize=20")
            XCTAssertFalse(publicIDs.contains(story))
            let (found, _) = try await replay.page("/bookstories/public/search?keyword=%EC%8B%A0%EA%B3%A0&pageSize=10")
            XCTAssertFalse(found.contains(story))
            let closedQueue = try JSONCoding.decoder.decode(
                [ReportGroupAnswer].self, from: try await admin(.GET, "/apps/\(appID)/reports?state=closed").body)
            XCTAssertEqual(closedQueue.map(\.action), ["hidden"])

            // The audit log, read by an owner, holds both actions under the moderator's id.
            let ownerSession = try await Self.signIn(gateway, owner)
            let log = try JSONCoding.decoder.decode(
                [AuditEntryAnswer].self, from: try await admin(.GET, "/audit?app=\(appID)", as: ownerSession.cookie).body)
            for action in ["content.hide", "user.ban", "reports.close"] {
                let entry = try XCTUnwrap(log.first { $0.action == action }, "\(action) in \(log.map(\.action))")
                XCTAssertEqual(entry.operatorId, session.id)
                XCTAssertFalse(entry.requestId.isEmpty)
            }
            XCTAssertEqual(log.first { $0.action == "user.ban" }?.targetId, author.id)

            // Lifted, the author is back (on every route) within a second.
            let unbanned = try await admin(.POST, "/apps/\(appID)/users/\(author.id)/unban", json: "{}")
            XCTAssertEqual(unbanned.status, 200)
            let back = await HTTPProbe.eventually(within: .seconds(1), every: .milliseconds(10)) { () -> Bool? in
                (try? await replay.call(.GET, "/bookstories/count", author.token))?.status == 200 ? true : nil
            }
            XCTAssertEqual(back, true)
        } catch {
            await quotehub.stop()
            throw error
        }
        await quotehub.stop()
    }
}
