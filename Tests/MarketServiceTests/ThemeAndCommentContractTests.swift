import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// API.md §9 themes, comments, hiding by blocks and reports, and a revoked account's content.
final class ThemeAndCommentContractTests: XCTestCase {
    typealias F = BookStoryFixture
    static let reader = BookStoryContractTests.reader, other = BookStoryContractTests.other

    func testThemesAndTheirStories() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await BookStoryContractTests.book(client, fixture)
            let created = try F.object(
                try await client.execute(
                    uri: "/folder/create", method: .post, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(ThemeFields(name: "  봄의 문장 ", description: "봄에 읽은 것", isPublic: true))), .created)
            JSON.assertKeys(created, F.themeKeys.subtracting(["folderImageURL"]))
            XCTAssertEqual(created["name"] as? String, "봄의 문장")
            JSON.assertKeys(try XCTUnwrap(created["userId"] as? [String: Any]), ["_id", "nickname", "profileImage"])
            let themeID = try JSON.string(created, "_id")
            let (headers, body) = try await fixture.multipart(
                [
                    .field("name", "비밀 테마"), .field("isPublic", "false"),
                    .file("folderImage", filename: "f.png", contentType: "image/png", bytes: F.png),
                ], user: Self.reader)
            let secret = try F.object(try await client.execute(uri: "/folder/create", method: .post, headers: headers, body: body), .created)
            XCTAssertTrue((secret["folderImageURL"] as? String)?.hasPrefix(F.base + "/files/folders/") == true)
            XCTAssertNil(secret["description"])
            let secretID = try JSON.string(secret, "_id")
            try F.expect(
                400,
                try await client.execute(
                    uri: "/folder/create", method: .post, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(ThemeFields(name: String(repeating: "가", count: 21), isPublic: true))))
            try F.expect(
                400,
                try await client.execute(
                    uri: "/folder/create", method: .post, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(ThemeFields(name: "a", description: String(repeating: "나", count: 101)))))

            // Stories go into one's own themes only.
            let story = try F.object(
                try await client.execute(
                    uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(
                        StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "꽃")], isPublic: true, folderIds: [themeID, secretID]))), .created)
            XCTAssertEqual(story["folderIds"] as? [String], [themeID, secretID])
            // Read back in the order given, here against the ids' order (the table's key).
            let given = [themeID, secretID].sorted(by: >)
            let reordered = try F.object(
                try await client.execute(
                    uri: "/bookstories/update/\(try JSON.string(story, "_id"))", method: .put, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(StoryFields(folderIds: given))))
            XCTAssertEqual(reordered["folderIds"] as? [String], given)
            let reread = try F.object(
                try await client.execute(uri: "/bookstories/\(try JSON.string(story, "_id"))", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(reread["folderIds"] as? [String], given)
            let listed = try F.page(try await client.execute(uri: "/bookstories/my", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(listed.items.first?["folderIds"] as? [String], given)
            try F.expect(
                404,
                try await client.execute(
                    uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.other),
                    body: JSONCoding.encode(StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "꽃")], isPublic: true, folderIds: [themeID]))))

            let all = try F.page(try await client.execute(uri: "/folder/all", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(all.items.map { $0["_id"] as? String }, [themeID])
            XCTAssertEqual(all.pagination, Pagination(currentPage: 1, pageSize: 10, totalItems: 1))
            let mine = try F.page(try await client.execute(uri: "/folder/myfolder", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(mine.items.map { $0["_id"] as? String }, [secretID, themeID])
            let users = try F.page(
                try await client.execute(uri: "/folder/user/\(Self.reader)", method: .get, headers: try await fixture.headers(Self.other)))
            XCTAssertEqual(users.pagination.totalItems, 1)
            try F.expect(404, try await client.execute(uri: "/folder/\(secretID)", method: .get, headers: try await fixture.headers(Self.other)))
            let read = try F.object(try await client.execute(uri: "/folder/\(themeID)", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(read["description"] as? String, "봄에 읽은 것")

            for path in ["/folder/public/\(themeID)", "/folder/friend/\(Self.reader)/\(themeID)"] {
                let inTheme = try F.page(try await client.execute(uri: path, method: .get, headers: try await fixture.headers(nil)))
                XCTAssertEqual(inTheme.items.map { $0["_id"] as? String }, [story["_id"] as? String], path)
            }
            try F.expect(
                404, try await client.execute(uri: "/folder/friend/\(Self.other)/\(themeID)", method: .get, headers: try await fixture.headers(nil)))
            let own = try F.page(
                try await client.execute(uri: "/folder/my/\(secretID)", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(own.pagination.totalItems, 1)
            try F.expect(404, try await client.execute(uri: "/folder/public/\(secretID)", method: .get, headers: try await fixture.headers(nil)))

            let renamed = try F.object(
                try await client.execute(
                    uri: "/folder/update/\(themeID)", method: .put, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(ThemeFields(name: "여름", description: ""))))
            XCTAssertEqual(renamed["name"] as? String, "여름")
            XCTAssertNil(renamed["description"])
            try F.expect(
                403,
                try await client.execute(
                    uri: "/folder/update/\(themeID)", method: .put, headers: try await fixture.headers(Self.other),
                    body: JSONCoding.encode(ThemeFields(name: "x"))))
            let deleted = try await client.execute(uri: "/folder/delete/\(themeID)", method: .delete, headers: try await fixture.headers(Self.reader))
            XCTAssertTrue(try F.data(deleted) is NSNull)
            let kept = try F.object(
                try await client.execute(uri: "/bookstories/\(try JSON.string(story, "_id"))", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(kept["folderIds"] as? [String], [secretID], "the story stays; the theme leaves its folderIds")
        }
    }

    func testCommentsWithOneLevelOfReplies() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await BookStoryContractTests.book(client, fixture)
            let story = try JSON.string(
                try F.object(
                    try await client.execute(
                        uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.reader),
                        body: JSONCoding.encode(StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "문장")], isPublic: true))), .created), "_id")
            func comment(_ user: String, _ content: String, parent: String? = nil) async throws -> TestResponse {
                try await client.execute(
                    uri: "/bookstoriesComments", method: .post, headers: try await fixture.headers(user),
                    body: JSONCoding.encode(StoryCommentFields(bookStoryId: story, content: content, parentCommentId: parent)))
            }
            let root = try F.object(try await comment(Self.other, "  좋은 문장이네요 "), .created)
            JSON.assertKeys(root, F.commentKeys.subtracting(["parentCommentId", "replies"]))
            XCTAssertEqual(root["content"] as? String, "좋은 문장이네요")
            XCTAssertEqual(root["bookStoryId"] as? String, story)
            let rootID = try JSON.string(root, "_id")
            var replyIDs: [String] = []
            for index in 0..<4 {
                let reply = try F.object(try await comment(Self.reader, "답글 \(index)", parent: rootID), .created)
                XCTAssertEqual(reply["parentCommentId"] as? String, rootID)
                replyIDs.append(try JSON.string(reply, "_id"))
            }
            try F.expect(400, try await comment(Self.other, "답글의 답글", parent: replyIDs[0]), "a reply to a reply")
            try F.expect(404, try await comment(Self.other, "없는 댓글", parent: "6740369b3a36e82f532ec7ff"))
            try F.expect(400, try await comment(Self.other, "   "))
            try F.expect(400, try await comment(Self.other, String(repeating: "다", count: 1001)))
            _ = try F.object(try await comment(Self.reader, "두 번째"), .created)

            let page = try F.page(
                try await client.execute(uri: "/bookstoriesComments/\(story)?pageSize=1", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(page.pagination, Pagination(currentPage: 1, pageSize: 1, totalItems: 2))
            let first = try XCTUnwrap(page.items.first)
            JSON.assertKeys(first, F.commentKeys.subtracting(["parentCommentId"]))
            let replies = try XCTUnwrap(first["replies"] as? [[String: Any]])
            XCTAssertEqual(replies.map { $0["_id"] as? String }, Array(replyIDs.prefix(3)), "the first three, oldest first")
            JSON.assertKeys(replies[0], F.commentKeys.subtracting(["replies"]))
            let count = try await client.execute(uri: "/bookstoriesComments/count/\(story)", method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(try F.data(count) as? Int, 6)

            try F.expect(
                403,
                try await client.execute(
                    uri: "/bookstoriesComments/\(rootID)", method: .put, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(StoryCommentFields(content: "남의 댓글"))))
            let edited = try F.object(
                try await client.execute(
                    uri: "/bookstoriesComments/\(rootID)", method: .put, headers: try await fixture.headers(Self.other),
                    body: JSONCoding.encode(StoryCommentFields(content: "고친 댓글"))))
            XCTAssertEqual(edited["content"] as? String, "고친 댓글")
            try F.expect(
                403, try await client.execute(uri: "/bookstoriesComments/\(rootID)", method: .delete, headers: try await fixture.headers(Self.reader))
            )
            let deleted = try await client.execute(
                uri: "/bookstoriesComments/\(rootID)", method: .delete, headers: try await fixture.headers(Self.other))
            XCTAssertTrue(try F.data(deleted) is NSNull)
            let after = try await client.execute(uri: "/bookstoriesComments/count/\(story)", method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(try F.data(after) as? Int, 1, "its replies went with it")
            try F.expect(
                404, try await client.execute(uri: "/bookstoriesComments/\(rootID)", method: .delete, headers: try await fixture.headers(Self.other)))
        }
    }

    func testBlocksAndReportsHideContentFromTheReader() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await BookStoryContractTests.book(client, fixture)
            func create(_ user: String, _ quote: String) async throws -> String {
                try JSON.string(
                    try F.object(
                        try await client.execute(
                            uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(user),
                            body: JSONCoding.encode(StoryFields(bookId: bookID, quotes: [StoryQuote(quote: quote)], isPublic: true))), .created),
                    "_id")
            }
            let others = try await create(Self.other, "숨길 문장"), reported = try await create(Self.reader, "신고된 문장"),
                kept = try await create(Self.reader, "남는 문장")
            _ = try await client.execute(
                uri: "/bookstoriesComments", method: .post, headers: try await fixture.headers(Self.other),
                body: JSONCoding.encode(StoryCommentFields(bookStoryId: kept, content: "숨길 댓글")))
            let third = "6740369b3a36e82f532ec703"
            fixture.harness.blocks.byUser.withLock { $0[third] = [Self.other] }
            fixture.harness.blocks.reportedStories.withLock { $0[third] = [reported] }
            func ids(_ path: String, _ user: String?) async throws -> [String?] {
                try F.page(try await client.execute(uri: path, method: .get, headers: try await fixture.headers(user))).items.map {
                    $0["_id"] as? String
                }
            }
            let guestFeed = try await ids("/bookstories/public", nil)
            XCTAssertEqual(Set(guestFeed), [others, reported, kept])
            let feed = try await ids("/bookstories/public", third)
            XCTAssertEqual(feed, [kept])
            let feedPage = try F.page(try await client.execute(uri: "/bookstories/public", method: .get, headers: try await fixture.headers(third)))
            XCTAssertEqual(feedPage.pagination.totalItems, 1, "the total leaves out what the reader hid")
            let friendPage = try F.page(
                try await client.execute(uri: "/bookstories/friend/\(Self.reader)", method: .get, headers: try await fixture.headers(third)))
            XCTAssertEqual(friendPage.pagination.totalItems, 1)
            let blockedPage = try F.page(
                try await client.execute(uri: "/bookstories/friend/\(Self.other)", method: .get, headers: try await fixture.headers(third)))
            XCTAssertEqual(blockedPage.pagination.totalItems, 0)
            let searched = try await ids("/bookstories/public/search?keyword=%EB%AC%B8%EC%9E%A5", third)
            XCTAssertEqual(searched, [kept])
            try F.expect(404, try await client.execute(uri: "/bookstories/\(others)", method: .get, headers: try await fixture.headers(third)))
            try F.expect(404, try await client.execute(uri: "/bookstories/\(reported)", method: .get, headers: try await fixture.headers(third)))
            let comments = try F.page(
                try await client.execute(uri: "/bookstoriesComments/\(kept)", method: .get, headers: try await fixture.headers(third)))
            XCTAssertEqual(comments.pagination.totalItems, 0)
            let count = try await client.execute(uri: "/bookstories/count/\(Self.other)", method: .get, headers: try await fixture.headers(third))
            XCTAssertEqual(try F.data(count) as? Int, 0)
        }
    }

    func testARevokedAccountsContentIsRemoved() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await BookStoryContractTests.book(client, fixture)
            let (headers, body) = try await fixture.multipart(
                [
                    .field("bookId", bookID), .field("quotes", #"[{"quote":"떠나는 문장"}]"#), .field("isPublic", "true"),
                    .file("storyImage", filename: "a.png", contentType: "image/png", bytes: F.png),
                ], user: Self.reader)
            let story = try F.object(
                try await client.execute(uri: "/bookstories/createBookStory", method: .post, headers: headers, body: body), .created)
            let image = try XCTUnwrap((story["storyImageURLs"] as? [String])?.first)
            let stays = try JSON.string(
                try F.object(
                    try await client.execute(
                        uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.other),
                        body: JSONCoding.encode(StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "남는 문장")], isPublic: true))), .created), "_id")
            _ = try await client.execute(
                uri: "/bookstoriesComments", method: .post, headers: try await fixture.headers(Self.reader),
                body: JSONCoding.encode(StoryCommentFields(bookStoryId: stays, content: "떠나는 댓글")))
            _ = try await client.execute(
                uri: "/folder/create", method: .post, headers: try await fixture.headers(Self.reader),
                body: JSONCoding.encode(ThemeFields(name: "떠나는 테마", isPublic: true)))

            let revoked = try await client.execute(
                uri: "/internal/accounts/revoked", method: .post, headers: try await fixture.headers(nil),
                body: JSONCoding.encode(AccountRevokedEvent(appID: PostContractTests.appID, userID: Self.reader)))
            XCTAssertEqual(revoked.status, .ok, revoked.body.text)
            let feed = try F.page(try await client.execute(uri: "/bookstories/public", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(feed.items.map { $0["_id"] as? String }, [stays])
            let comments = try await client.execute(uri: "/bookstoriesComments/count/\(stays)", method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(try F.data(comments) as? Int, 0)
            let themes = try F.page(try await client.execute(uri: "/folder/all", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(themes.pagination.totalItems, 0)
            let served = try await client.execute(uri: String(image.dropFirst(F.base.count)), method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(served.status, .notFound, "its images are removed")
            let again = try await client.execute(
                uri: "/internal/accounts/revoked", method: .post, headers: try await fixture.headers(nil),
                body: JSONCoding.encode(AccountRevokedEvent(appID: PostContractTests.appID, userID: Self.reader)))
            XCTAssertEqual(again.status, .ok, "a repeated delivery finds nothing left")
        }
    }
}
