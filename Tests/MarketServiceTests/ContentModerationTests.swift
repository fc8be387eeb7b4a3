import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// Operators' hiding (issue 35, asked by admin-svc): a hidden post is gone for every user, its
/// author too (detail 404, feeds, searches, profiles' lists), and back once restored.
final class ContentModerationTests: XCTestCase {
    static let alice = PostContractTests.alice, bob = PostContractTests.bob

    func testAHiddenPostIsGoneForEveryoneUntilRestored() async throws {
        let harness = try await PostContractTests.Harness.make()
        try await harness.app.contractTest { client in
            let created = try await client.execute(
                uri: "/v1/posts", method: .post, headers: try await harness.headers(Self.alice, [("content-type", "application/json")]),
                body: JSONCoding.encode(PostCreateRequest(category: "walk", title: "신고된 글", price: 0, content: "abuse")))
            XCTAssertEqual(created.status, .ok, created.body.text)
            let id = try JSON.string(try JSON.object(created.body), "post_id")
            let kept = try await client.execute(
                uri: "/v1/posts", method: .post, headers: try await harness.headers(Self.alice, [("content-type", "application/json")]),
                body: JSONCoding.encode(PostCreateRequest(category: "walk", title: "남는 글", price: 0, content: "fine")))
            let keptID = try JSON.string(try JSON.object(kept.body), "post_id")
            let asGateway = TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")])

            let summary = try await client.execute(uri: "/internal/market/moderation/post/\(id)", method: .get, headers: asGateway)
            XCTAssertEqual(summary.status, .ok, summary.body.text)
            let before = try JSONCoding.decoder.decode(ContentSummary.self, from: summary.body)
            XCTAssertEqual(before.authorId, Self.alice)
            XCTAssertFalse(before.hidden)
            XCTAssertTrue(before.preview.contains("신고된 글"))

            let hidden = try await client.execute(
                uri: "/internal/market/moderation/post/\(id)/hide", method: .post, headers: asGateway,
                body: JSONCoding.encode(ModerationRequest(operatorID: "op-1", reason: "abuse")))
            XCTAssertEqual(hidden.status, .ok, hidden.body.text)
            let after = try JSONCoding.decoder.decode(ContentSummary.self, from: hidden.body)
            XCTAssertTrue(after.hidden)
            XCTAssertEqual(after.hiddenBy, "op-1")
            XCTAssertEqual(after.hiddenReason, "abuse")

            for user in [Self.alice, Self.bob] {
                let detail = try await client.execute(uri: "/v1/posts/\(id)", method: .get, headers: try await harness.headers(user))
                XCTAssertEqual(detail.status, .notFound, "the author too")
                let feed = try await client.execute(uri: "/v1/posts", method: .get, headers: try await harness.headers(user))
                XCTAssertEqual(try Self.ids(feed), [keptID])
                let mine = try await client.execute(uri: "/v1/posts/users/\(Self.alice)", method: .get, headers: try await harness.headers(user))
                XCTAssertEqual(try Self.ids(mine), [keptID])
                let search = try await client.execute(
                    uri: "/v1/posts/search?title=\("글".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)", method: .get,
                    headers: try await harness.headers(user))
                XCTAssertEqual(try Self.ids(search), [keptID])
                let like = try await client.execute(
                    uri: "/v1/posts/\(id)/like", method: .post, headers: try await harness.headers(user, [("content-type", "application/json")]),
                    body: JSONCoding.encode(LikeStatus(likeStatus: true)))
                XCTAssertEqual(like.status, .notFound)
            }
            let profileIDs = try await client.execute(
                uri: "/internal/users/\(Self.alice)/post-ids", method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
            XCTAssertEqual(try JSONCoding.decoder.decode(UserIDList.self, from: profileIDs.body).userIDs, [keptID])

            let restored = try await client.execute(
                uri: "/internal/market/moderation/post/\(id)/restore", method: .post, headers: asGateway,
                body: JSONCoding.encode(ModerationRequest(operatorID: "op-1")))
            XCTAssertFalse(try JSONCoding.decoder.decode(ContentSummary.self, from: restored.body).hidden)
            let back = try await client.execute(uri: "/v1/posts/\(id)", method: .get, headers: try await harness.headers(Self.bob))
            XCTAssertEqual(back.status, .ok)

            let otherApp = try await client.execute(
                uri: "/internal/market/moderation/post/\(id)/hide", method: .post, headers: TestEnvironment.fields(app: "another-app"),
                body: JSONCoding.encode(ModerationRequest(operatorID: "op-1")))
            XCTAssertEqual(otherApp.status, .notFound, "another app's post does not exist for it")
            let unknownKind = try await client.execute(uri: "/internal/market/moderation/theme/\(id)", method: .get, headers: asGateway)
            XCTAssertEqual(unknownKind.status, .notFound)
        }
    }

    /// admin-svc's reads of several pieces at once: by id for a page of the reports queue, an
    /// author's newest for the user's page; each with its images and time.
    func testPiecesByIDAndAnAuthorsNewest() async throws {
        let harness = try await PostContractTests.Harness.make()
        try await harness.app.contractTest { client in
            var posts: [String] = []
            for (author, title) in [(Self.alice, "첫 글"), (Self.bob, "남의 글"), (Self.alice, "둘째 글"), (Self.alice, "셋째 글")] {
                let created = try await client.execute(
                    uri: "/v1/posts", method: .post, headers: try await harness.headers(author, [("content-type", "application/json")]),
                    body: JSONCoding.encode(PostCreateRequest(category: "walk", title: title, price: 0, content: "")))
                posts.append(try JSON.string(try JSON.object(created.body), "post_id"))
            }
            let gateway = TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")])
            func find(_ query: ContentFind, kind: String = "post") async throws -> (HTTPResponse.Status, [ContentSummary]) {
                let answer = try await client.execute(
                    uri: "/internal/market/moderation/\(kind)/find", method: .post, headers: gateway, body: JSONCoding.encode(query))
                return (answer.status, answer.status == .ok ? try JSONCoding.decoder.decode([ContentSummary].self, from: answer.body) : [])
            }
            let newest = try await find(ContentFind(authorId: Self.alice, limit: 2))
            XCTAssertEqual(newest.1.map(\.id), [posts[3], posts[2]], "alice's newest first")
            XCTAssertEqual(newest.1.first?.files, [])
            XCTAssertNotNil(GlintDate.milliseconds(from: newest.1.first?.createdAt ?? ""))
            let byID = try await find(ContentFind(ids: [posts[1], "6740369b3a36e82f532ec7ff", posts[0]]))
            XCTAssertEqual(byID.1.map(\.preview), ["남의 글\n", "첫 글\n"], "in the order asked, the unknown left out")
            let themes = try await find(ContentFind(authorId: Self.alice), kind: "theme")
            XCTAssertEqual(themes.1, [], "none of another kind")
            let messages = try await find(ContentFind(authorId: Self.alice), kind: "message")
            XCTAssertEqual(messages.0, .notFound, "messages are chat-svc's")
            let nobody = try await find(ContentFind(authorId: "nobody"))
            XCTAssertEqual(nobody.1, [])
            let neither = try await find(ContentFind())
            XCTAssertEqual(neither.0, .badRequest)
        }
    }

    func testAHiddenFilterIsGoneFromDetailsListsAndOrders() async throws {
        let harness = try await PostContractTests.Harness.make()
        try await harness.app.contractTest { client in
            let created = try await FilterContractTests.call(
                client, harness, .post, "/v1/filters", as: Self.alice, body: FilterContractTests.filter())
            let id = try JSON.string(try JSON.object(created.body), "filter_id")
            let hidden = try await client.execute(
                uri: "/internal/market/moderation/filter/\(id)/hide", method: .post,
                headers: TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")]),
                body: JSONCoding.encode(ModerationRequest(operatorID: "op-1")))
            XCTAssertEqual(hidden.status, .ok, hidden.body.text)
            XCTAssertEqual(try JSONCoding.decoder.decode(ContentSummary.self, from: hidden.body).authorId, Self.alice)
            for user in [Self.alice, Self.bob] {
                let detail = try await FilterContractTests.call(client, harness, .get, "/v1/filters/\(id)", as: user)
                XCTAssertEqual(detail.status, .notFound)
                let list = try JSON.object(try await FilterContractTests.call(client, harness, .get, "/v1/filters", as: user).body)
                XCTAssertEqual((list["data"] as? [Any])?.count, 0)
            }
            let order = try await FilterContractTests.call(
                client, harness, .post, "/v1/orders", as: Self.bob, body: OrderRequest(filterID: id, totalPrice: 1000))
            XCTAssertEqual(order.status, .notFound, "a hidden filter cannot be bought")
        }
    }

    private static func ids(_ response: TestResponse) throws -> [String] {
        XCTAssertEqual(response.status, .ok, response.body.text)
        let data = try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]])
        return try data.map { try JSON.string($0, "post_id") }
    }
}

/// Hidden book stories and themes (quotehub apps): gone from every list, search and page for
/// every reader — their authors' own lists too — and back once restored.
final class QuotehubModerationTests: XCTestCase {
    typealias F = BookStoryFixture
    static let reader = BookStoryContractTests.reader, other = BookStoryContractTests.other

    func testHiddenStoriesAndThemesAreGoneForEveryone() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await BookStoryContractTests.book(client, fixture)
            let theme = try JSON.string(
                try F.object(
                    try await client.execute(
                        uri: "/folder/create", method: .post, headers: try await fixture.headers(Self.reader),
                        body: JSONCoding.encode(ThemeFields(name: "숨길 폴더", description: nil, isPublic: true))), .created), "_id")
            var stories: [String] = []
            for content in ["숨길 이야기", "남을 이야기"] {
                let story = try F.object(
                    try await client.execute(
                        uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.reader),
                        body: JSONCoding.encode(
                            StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "꽃")], isPublic: true, content: content, folderIds: []))),
                    .created)
                stories.append(try JSON.string(story, "_id"))
            }
            let gateway = TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")])
            for (kind, id) in [("story", stories[0]), ("theme", theme)] {
                let hidden = try await client.execute(
                    uri: "/internal/market/moderation/\(kind)/\(id)/hide", method: .post, headers: gateway,
                    body: JSONCoding.encode(ModerationRequest(operatorID: "op-1")))
                XCTAssertEqual(hidden.status, .ok, hidden.body.text)
                XCTAssertEqual(try JSONCoding.decoder.decode(ContentSummary.self, from: hidden.body).authorId, Self.reader)
            }
            for user in [nil, Self.reader, Self.other] {
                try F.expect(404, try await client.execute(uri: "/bookstories/\(stories[0])", method: .get, headers: try await fixture.headers(user)))
                try F.expect(404, try await client.execute(uri: "/folder/\(theme)", method: .get, headers: try await fixture.headers(user)))
                let listed = try F.page(try await client.execute(uri: "/bookstories/public", method: .get, headers: try await fixture.headers(user)))
                XCTAssertEqual(listed.items.map { $0["_id"] as? String }, [stories[1]])
                XCTAssertEqual(listed.pagination.totalItems, 1, "the totals leave it out too")
                let folders = try F.page(try await client.execute(uri: "/folder/all", method: .get, headers: try await fixture.headers(user)))
                XCTAssertEqual(folders.items.count, 0)
            }
            let mine = try F.page(try await client.execute(uri: "/bookstories/my", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(mine.items.map { $0["_id"] as? String }, [stories[1]], "the author's own list too")
            let myFolders = try F.page(
                try await client.execute(uri: "/folder/myfolder", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(myFolders.items.count, 0)

            let restored = try await client.execute(
                uri: "/internal/market/moderation/story/\(stories[0])/restore", method: .post, headers: gateway,
                body: JSONCoding.encode(ModerationRequest(operatorID: "op-1")))
            XCTAssertEqual(restored.status, .ok)
            let back = try F.page(try await client.execute(uri: "/bookstories/public", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(Set(back.items.compactMap { $0["_id"] as? String }), Set(stories))
        }
    }
}

/// Hidden comments (and their replies) leave post answers — fresh and kept —, filter pages and
/// story threads and counts, for everyone; restored, they are back.
final class CommentModerationTests: XCTestCase {
    static let alice = PostContractTests.alice, bob = PostContractTests.bob

    static func moderate(_ client: some TestClientProtocol, _ action: String, _ id: String) async throws {
        let answer = try await client.execute(
            uri: "/internal/market/moderation/comment/\(id)/\(action)", method: .post,
            headers: TestEnvironment.fields(app: PostContractTests.appID, extra: [("content-type", "application/json")]),
            body: JSONCoding.encode(ModerationRequest(operatorID: "op-1")))
        XCTAssertEqual(answer.status, .ok, answer.body.text)
    }

    /// The filter's page reads the filter, its comments and its counts in one read: each part as
    /// the caller may see it (a blocked author's comments, a hidden comment and its replies left out).
    func testAFiltersPageShowsItsCommentsAsTheCallerMaySeeThem() async throws {
        let harness = try await PostContractTests.Harness.make()
        let carol = PostInteractionTests.carol
        try await harness.app.contractTest { client in
            let created = try await FilterContractTests.call(
                client, harness, .post, "/v1/filters", as: Self.alice, body: FilterContractTests.filter())
            let filter = try JSON.string(try JSON.object(created.body), "filter_id")
            func comment(_ user: String, _ content: String, parent: String? = nil) async throws -> String {
                let answer = try await FilterContractTests.call(
                    client, harness, .post, "/v1/filters/\(filter)/comments", as: user,
                    body: CommentRequest(content: content, parentCommentID: parent))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                return try JSON.string(try JSON.object(answer.body), "comment_id")
            }
            let bad = try await comment(Self.bob, "나쁜 댓글"), good = try await comment(Self.bob, "좋은 댓글")
            let reply = try await comment(Self.alice, "답글", parent: good)
            let fromCarol = try await comment(carol, "캐롤")
            _ = try await FilterContractTests.call(
                client, harness, .post, "/v1/filters/\(filter)/like", as: Self.bob, body: LikeStatus(likeStatus: true))
            func shown(_ user: String) async throws -> (comments: [String], replies: [String], liked: Bool?, likes: Int?) {
                let answer = try await FilterContractTests.call(client, harness, .get, "/v1/filters/\(filter)", as: user)
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                let detail = try JSON.object(answer.body)
                let comments = try XCTUnwrap(detail["comments"] as? [[String: Any]])
                return (
                    try comments.map { try JSON.string($0, "comment_id") },
                    try comments.flatMap { try XCTUnwrap($0["replies"] as? [[String: Any]]).map { try JSON.string($0, "comment_id") } },
                    detail["is_liked"] as? Bool, detail["like_count"] as? Int
                )
            }
            let asBob = try await shown(Self.bob)
            XCTAssertEqual(asBob.comments, [bad, good, fromCarol], "oldest first")
            XCTAssertEqual(asBob.replies, [reply])
            XCTAssertEqual(asBob.liked, true)
            XCTAssertEqual(asBob.likes, 1)
            let asAlice = try await shown(Self.alice)
            XCTAssertEqual(asAlice.liked, false)

            harness.blocks.byUser.withLock { $0[Self.alice] = [carol] }
            let blocking = try await shown(Self.alice), notBlocking = try await shown(Self.bob)
            XCTAssertEqual(blocking.comments, [bad, good], "a blocked author's comments vanish for the blocker")
            XCTAssertEqual(notBlocking.comments, [bad, good, fromCarol], "and only for the blocker")

            try await Self.moderate(client, "hide", good)
            for user in [Self.alice, Self.bob] {
                let seen = try await shown(user)
                XCTAssertFalse(seen.comments.contains(good), "a hidden comment leaves")
                XCTAssertEqual(seen.replies, [], "its replies with it")
            }
            try await Self.moderate(client, "restore", good)
            let restored = try await shown(Self.bob)
            XCTAssertEqual(restored.replies, [reply])
        }
    }

    func testAHiddenPostCommentAndItsRepliesLeaveThePost() async throws {
        let harness = try await PostContractTests.Harness.make()
        try await harness.app.contractTest { client in
            let created = try await FilterContractTests.call(
                client, harness, .post, "/v1/posts", as: Self.alice, body: PostCreateRequest(category: "walk", title: "글", price: 0, content: "본문"))
            let post = try JSON.string(try JSON.object(created.body), "post_id")
            func comment(_ user: String, _ content: String, parent: String? = nil) async throws -> String {
                let answer = try await FilterContractTests.call(
                    client, harness, .post, "/v1/posts/\(post)/comments", as: user, body: CommentRequest(content: content, parentCommentID: parent))
                return try JSON.string(try JSON.object(answer.body), "comment_id")
            }
            let bad = try await comment(Self.bob, "나쁜 댓글"), good = try await comment(Self.bob, "좋은 댓글")
            _ = try await comment(Self.alice, "답글", parent: bad)
            func shown(_ user: String) async throws -> [String] {
                // The feed first (it keeps the answers), then the post itself.
                _ = try await FilterContractTests.call(client, harness, .get, "/v1/posts", as: user)
                let detail = try JSON.object(try await FilterContractTests.call(client, harness, .get, "/v1/posts/\(post)", as: user).body)
                return try XCTUnwrap(detail["comments"] as? [[String: Any]]).compactMap { $0["comment_id"] as? String }
            }
            let before = try await shown(Self.bob)
            XCTAssertEqual(Set(before), [bad, good], "kept before the hide")
            try await Self.moderate(client, "hide", bad)
            for user in [Self.alice, Self.bob] {
                let ids = try await shown(user)
                XCTAssertEqual(ids, [good], "the kept answer does not show it either")
            }
            let feed = try JSON.object(try await FilterContractTests.call(client, harness, .get, "/v1/posts", as: Self.bob).body)
            let inFeed = try XCTUnwrap((feed["data"] as? [[String: Any]])?.first?["comments"] as? [[String: Any]])
            XCTAssertEqual(inFeed.compactMap { $0["comment_id"] as? String }, [good])
            try await Self.moderate(client, "restore", bad)
            let after = try await shown(Self.bob)
            XCTAssertEqual(Set(after), [bad, good])
        }
    }

    func testAHiddenStoryCommentLeavesItsThreadAndCount() async throws {
        let fixture = try await BookStoryFixture.make()
        typealias F = BookStoryFixture
        let (reader, other) = (BookStoryContractTests.reader, BookStoryContractTests.other)
        try await fixture.harness.app.contractTest { client in
            let bookID = try await BookStoryContractTests.book(client, fixture)
            let story = try JSON.string(
                try F.object(
                    try await client.execute(
                        uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(reader),
                        body: JSONCoding.encode(StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "문장")], isPublic: true))), .created), "_id")
            func comment(_ user: String, _ content: String, parent: String? = nil) async throws -> String {
                try JSON.string(
                    try F.object(
                        try await client.execute(
                            uri: "/bookstoriesComments", method: .post, headers: try await fixture.headers(user),
                            body: JSONCoding.encode(StoryCommentFields(bookStoryId: story, content: content, parentCommentId: parent))), .created),
                    "_id")
            }
            let bad = try await comment(other, "나쁜 댓글")
            _ = try await comment(reader, "답글", parent: bad)
            let good = try await comment(other, "좋은 댓글")
            try await Self.moderate(client, "hide", bad)
            for user in [nil, reader, other] {
                let page = try F.page(
                    try await client.execute(uri: "/bookstoriesComments/\(story)", method: .get, headers: try await fixture.headers(user)))
                XCTAssertEqual(page.items.compactMap { $0["_id"] as? String }, [good])
                XCTAssertEqual(page.pagination.totalItems, 1)
                let count = try await client.execute(
                    uri: "/bookstoriesComments/count/\(story)", method: .get, headers: try await fixture.headers(user))
                XCTAssertEqual(try F.data(count) as? Int, 1, "the hidden comment and its reply are not counted")
            }
        }
    }
}
