import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Content shown as the apps show it: a reported story's images in the queue (read through
/// admin-svc, since a browser cannot send the app key), a message among the messages around it,
/// a user's content on the user's page, an author's newest by kind — in the console and the API.
final class ContentViewTests: XCTestCase {
    static let app = ReportQueueTests.app, author = ReportQueueTests.author, story = ReportQueueTests.story
    static let messages = (0..<8).map { String(format: "6740369b3a36e82f5320%04x", $0) }

    static func seed(_ harness: AdminHarness) {
        ReportQueueTests.seed(harness)
        harness.bans.content.withLock {
            $0[story]?.files = ["/data/bookstories/6740369b3a36e82f532ec7dd.png"]
            $0[story]?.createdAt = "2026-11-25T09:00:00.000Z"
            for (index, id) in messages.enumerated() {
                $0[id] = ContentSummary(
                    kind: .message, id: id, appId: app, authorId: index == 4 ? author : ReportQueueTests.reader, preview: "메시지 \(index)",
                    createdAt: "2026-11-26T10:00:0\(index).000Z", hidden: false)
            }
        }
    }

    func testTheConsoleShowsImagesNeighboursAndAUsersContent() async throws {
        let harness = try await AdminHarness.make()
        Self.seed(harness)
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            var browser = ConsoleFormTests.Browser(client: client)
            try await browser.signIn(moderator, firstTime: true)
            let image = "/admin/apps/\(Self.app)/files/bookstories/6740369b3a36e82f532ec7dd.png"
            let queue = String(buffer: try await browser.get("/admin/apps/\(Self.app)/reports").body)
            XCTAssertTrue(queue.contains(#"<img src="\#(image)""#), "the story's image in the queue: \(queue)")

            let file = try await browser.get(image)
            XCTAssertEqual(file.status, .ok)
            XCTAssertEqual(file.headers[.contentType], "image/png")
            XCTAssertEqual(file.body, BanRecorder.png)
            XCTAssertEqual(file.headers[.cacheControl], "private, max-age=3600")
            XCTAssertEqual(
                harness.bans.filesAsked.withLock { $0.last }, StoredFilePath("/data/bookstories/6740369b3a36e82f532ec7dd.png"),
                "asked of market-svc at the path it serves")
            XCTAssertEqual(harness.bans.filesAsked.withLock { $0.last?.servedPath }, "/files/bookstories/6740369b3a36e82f532ec7dd.png")
            let again = try await client.execute(
                uri: image, method: .get, headers: browser.headers([("If-None-Match", try XCTUnwrap(file.headers[.eTag]))]))
            XCTAssertEqual(again.status, .notModified)
            let unknownArea = try await browser.get("/admin/apps/\(Self.app)/files/secrets/x.png")
            XCTAssertEqual(unknownArea.status, .notFound)
            let signedOut = try await client.execute(uri: image, method: .get, headers: AdminHarness.headers())
            XCTAssertEqual(signedOut.status, .seeOther, "no image without a session")
            let otherApp = try await browser.get("/admin/apps/\(AdminHarness.glint.appID)/files/posts/6740369b3a36e82f532ec7dd.png")
            XCTAssertEqual(otherApp.status, .notFound, "nor of an app the operator does not see")

            let message = String(buffer: try await browser.get("/admin/apps/\(Self.app)/content?kind=message&id=\(Self.messages[4])").body)
            XCTAssertTrue(message.contains("In its room"), message)
            let shown = (0..<8).filter { message.contains("메시지 \($0)") }
            XCTAssertEqual(shown, Array(1...7), "three before and three after")
            XCTAssertEqual(message.components(separatedBy: #"class="piece marked"#).count, 2, "the message itself marked among its neighbours")

            let byAuthor = String(buffer: try await browser.get("/admin/apps/\(Self.app)/content?kind=message&author=\(Self.author)").body)
            XCTAssertTrue(byAuthor.contains("메시지 4"), byAuthor)
            XCTAssertFalse(byAuthor.contains("메시지 3"), "another author's message")
            let badAuthor = try await browser.get("/admin/apps/\(Self.app)/content?kind=message&author=nobody")
            XCTAssertEqual(badAuthor.status, .notFound)

            let user = String(buffer: try await browser.get("/admin/apps/\(Self.app)/users/\(Self.author)").body)
            XCTAssertTrue(user.contains("나쁜 이야기") && user.contains("메시지 4"), "the user's story and message: \(user)")
            XCTAssertTrue(user.contains(#"<img src="\#(image)""#))
            XCTAssertTrue(user.contains("/admin/apps/\(Self.app)/content?kind=story&amp;author=\(Self.author)"))
        }
    }

    func testTheAPIListsAnAuthorsContentAndAMessagesNeighbours() async throws {
        let harness = try await AdminHarness.make()
        Self.seed(harness)
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, moderator)
            let base = "/admin/api/apps/\(Self.app)/content"
            let stories = try await client.execute(uri: "\(base)/story?author=\(Self.author)", method: .get, headers: session.headers())
            XCTAssertEqual(stories.status, .ok, String(buffer: stories.body))
            let first = try XCTUnwrap(try JSON.array(stories.body).first)
            JSON.assertKeys(first, ["kind", "id", "appId", "authorId", "preview", "files", "createdAt", "hidden"])
            XCTAssertEqual(first["files"] as? [String], ["/data/bookstories/6740369b3a36e82f532ec7dd.png"])
            let around = try await client.execute(uri: "\(base)/message/\(Self.messages[1])/around", method: .get, headers: session.headers())
            XCTAssertEqual(
                try JSONCoding.decoder.decode([ContentSummary].self, from: around.body).map(\.id), Array(Self.messages[0...4]),
                "oldest first; fewer before the room's second message")
            for (path, status) in [
                ("\(base)/story/\(Self.story)/around", HTTPResponse.Status.notFound), ("\(base)/story", .badRequest),
                ("\(base)/story?author=\(Self.author)&limit=500", .badRequest), ("\(base)/book?author=\(Self.author)", .notFound),
            ] {
                let answer = try await client.execute(uri: path, method: .get, headers: session.headers())
                XCTAssertEqual(answer.status, status, path)
            }
        }
    }
}
