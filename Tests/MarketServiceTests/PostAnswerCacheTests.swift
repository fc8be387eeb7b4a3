import Contracts
import HTTPTypes
import HummingbirdTesting
import ServiceClients
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import MarketService

/// Kept (rendered) posts must never show what rendering afresh would not: every read below
/// follows a read that kept the post.
final class PostAnswerCacheTests: XCTestCase {
    typealias Harness = PostContractTests.Harness
    static let alice = PostContractTests.alice, bob = PostContractTests.bob, carol = "6740369b3a36e82f532ec723"

    /// auth-svc as the cache sees it: nicknames that change, blocks that appear.
    final class People: Sendable {
        let nicknames = Mutex<[String: String]>([:])
        let blocks = Mutex<[String: Set<String>]>([:])

        var client: AuthClient {
            var client = AuthClient.unimplemented
            client.users = { ids, _, _ in
                let nicknames = self.nicknames.withLock { $0 }
                return Dictionary(
                    uniqueKeysWithValues: ids.map {
                        (
                            $0,
                            UserInfoFull(
                                userID: $0, nick: nicknames[$0] ?? "first", profileImage: nil, name: "", introduction: "", description: "",
                                hashTags: [])
                        )
                    })
            }
            client.blocked = { user, _, _ in self.blocks.withLock { $0[user] ?? [] } }
            return client
        }
    }

    private static func call(
        _ client: some TestClientProtocol, _ harness: Harness, _ method: HTTPRequest.Method, _ uri: String, as user: String,
        app: String = PostContractTests.appID,
        body: (some Encodable)? = Optional<EmptyAnswer>.none
    ) async throws -> TestResponse {
        let token = try await harness.keys.token(user: user, app: app)
        let headers = TestEnvironment.fields(app: app, extra: [("Authorization", token), ("content-type", "application/json")])
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { JSONCoding.encode($0) })
    }

    private static func post(_ client: some TestClientProtocol, _ harness: Harness, _ id: String, as user: String) async throws -> [String: Any] {
        let response = try await call(client, harness, .get, "/v1/posts/\(id)", as: user)
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSON.object(response.body)
    }

    private static func feed(_ client: some TestClientProtocol, _ harness: Harness, as user: String) async throws -> [[String: Any]] {
        let response = try await call(client, harness, .get, "/v1/posts?limit=20", as: user)
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try XCTUnwrap(try JSON.object(response.body)["data"] as? [[String: Any]])
    }

    /// The post's `key`, by id and first in the feed, is `value`.
    private static func expect<Value: Equatable>(
        _ client: some TestClientProtocol, _ harness: Harness, _ id: String, _ key: String, _ value: Value, file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        let read = try await post(client, harness, id, as: bob)
        let listed = try await feed(client, harness, as: bob).first
        XCTAssertEqual(read[key] as? Value, value, "by id", file: file, line: line)
        XCTAssertEqual(listed?[key] as? Value, value, "in the feed", file: file, line: line)
    }

    private static func create(
        _ client: some TestClientProtocol, _ harness: Harness, as user: String, _ request: PostCreateRequest
    ) async throws -> String {
        let response = try await call(client, harness, .post, "/v1/posts", as: user, body: request)
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSON.string(try JSON.object(response.body), "post_id")
    }

    func testAKeptPostShowsEveryLaterWriteWhoeverWroteIt() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let id = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "first", content: ""))
            for _ in 0..<2 {
                let read = try await Self.post(client, harness, id, as: Self.bob)
                XCTAssertEqual(read["likes"] as? [String], [])
            }

            _ = try await Self.call(client, harness, .post, "/v1/posts/\(id)/like", as: Self.bob, body: LikeStatus(likeStatus: true))
            try await Self.expect(client, harness, id, "likes", [Self.bob])

            _ = try await Self.call(client, harness, .post, "/v1/posts/\(id)/comments", as: Self.carol, body: CommentRequest(content: "hello"))
            let commented = try await Self.post(client, harness, id, as: Self.bob)
            XCTAssertEqual((commented["comments"] as? [[String: Any]])?.map { $0["content"] as? String }, ["hello"])

            _ = try await Self.call(client, harness, .put, "/v1/posts/\(id)", as: Self.alice, body: PostUpdateRequest(title: "second"))
            try await Self.expect(client, harness, id, "title", "second")

            // A write that bypasses the post service (an account's removal, an operator's fix).
            try await harness.engine.execute("UPDATE post SET title = 'third' WHERE id = '\(id)'")
            if harness.engine.isPostgres {
                // On PostgreSQL another writer's commit reaches the cache as a notification, a moment later.
                let seen = await HTTPProbe.eventually(within: .seconds(10)) { () -> Bool? in
                    (try? await Self.post(client, harness, id, as: Self.bob))?["title"] as? String == "third" ? true : nil
                }
                XCTAssertNotNil(seen, "the notification of the write empties the cache")
            }
            try await Self.expect(client, harness, id, "title", "third")

            _ = try await Self.call(client, harness, .delete, "/v1/posts/\(id)", as: Self.alice)
            let gone = try await Self.call(client, harness, .get, "/v1/posts/\(id)", as: Self.bob)
            XCTAssertEqual(gone.status, .notFound)
            let empty = try await Self.feed(client, harness, as: Self.bob)
            XCTAssertEqual(empty.count, 0)
        }
    }

    func testKeptPostsShowCurrentUsersAndHideWhatEachReaderBlocked() async throws {
        let people = People()
        let harness = try await Harness.make(users: people.client)
        try await harness.app.contractTest { client in
            let id = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "t", content: ""))
            let comment = try await Self.call(
                client, harness, .post, "/v1/posts/\(id)/comments", as: Self.carol, body: CommentRequest(content: "by carol"))
            let commentID = try JSON.string(try JSON.object(comment.body), "comment_id")
            _ = try await Self.call(
                client, harness, .post, "/v1/posts/\(id)/comments", as: Self.alice, body: CommentRequest(content: "reply", parentCommentID: commentID)
            )
            _ = try await Self.post(client, harness, id, as: Self.alice)
            _ = try await Self.feed(client, harness, as: Self.alice)

            people.nicknames.withLock { $0 = [Self.alice: "renamed", Self.carol: "carol2"] }
            let renamed = [try await Self.post(client, harness, id, as: Self.alice), try await Self.feed(client, harness, as: Self.alice)[0]]
            for answer in renamed {
                XCTAssertEqual((answer["creator"] as? [String: Any])?["nick"] as? String, "renamed")
                let comments = try XCTUnwrap(answer["comments"] as? [[String: Any]])
                XCTAssertEqual((comments.first?["creator"] as? [String: Any])?["nick"] as? String, "carol2")
                let replies = try XCTUnwrap(comments.first?["replies"] as? [[String: Any]])
                XCTAssertEqual((replies.first?["creator"] as? [String: Any])?["nick"] as? String, "renamed")
            }

            people.blocks.withLock { $0[Self.bob] = [Self.carol] }
            let forBob = [try await Self.post(client, harness, id, as: Self.bob), try await Self.feed(client, harness, as: Self.bob)[0]]
            for answer in forBob {
                XCTAssertEqual((answer["comments"] as? [[String: Any]])?.count, 0, "bob blocked the comment's author")
            }
            // What bob's reads rendered (carol's comment hidden) is not what alice then gets.
            let forAlice = try await Self.post(client, harness, id, as: Self.alice)
            XCTAssertEqual((forAlice["comments"] as? [[String: Any]])?.map { $0["content"] as? String }, ["by carol"])
        }
    }

    func testAKeptFeedPageIsSentAsWrittenUntilWhatItShowsChanges() async throws {
        let people = People()
        let harness = try await Harness.make(users: people.client)
        try await harness.app.contractTest { client in
            let first = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "one", content: ""))
            let second = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "two", content: ""))
            _ = try await Self.call(client, harness, .post, "/v1/posts/\(first)/comments", as: Self.carol, body: CommentRequest(content: "hi"))
            let written = try await Self.call(client, harness, .get, "/v1/posts?limit=20", as: Self.bob)
            let kept = try await Self.call(client, harness, .get, "/v1/posts?limit=20", as: Self.bob)
            XCTAssertEqual(kept.status, .ok)
            XCTAssertEqual(kept.headers[.contentType], written.headers[.contentType])
            XCTAssertEqual(kept.body, written.body, "the kept page is the page as it was written")
            XCTAssertEqual(try JSON.object(kept.body)["next_cursor"] as? String, "0")

            // A comment's author renamed: the page shows the new name, not the bytes it kept.
            people.nicknames.withLock { $0 = [Self.carol: "carol2"] }
            let renamed = try await Self.feed(client, harness, as: Self.bob)
            XCTAssertEqual(renamed.map { $0["post_id"] as? String }, [second, first])
            let comment = try XCTUnwrap((renamed[1]["comments"] as? [[String: Any]])?.first)
            XCTAssertEqual((comment["creator"] as? [String: Any])?["nick"] as? String, "carol2")
            XCTAssertEqual((renamed[0]["creator"] as? [String: Any])?["nick"] as? String, "first")

            // The post's author renamed after that page was kept in its turn.
            people.nicknames.withLock { $0[Self.alice] = "alice2" }
            let authorRenamed = try await Self.feed(client, harness, as: Self.bob)
            XCTAssertEqual(authorRenamed.map { ($0["creator"] as? [String: Any])?["nick"] as? String }, ["alice2", "alice2"])

            // A like is a commit: the page is read again.
            _ = try await Self.call(client, harness, .post, "/v1/posts/\(second)/like", as: Self.bob, body: LikeStatus(likeStatus: true))
            let liked = try await Self.feed(client, harness, as: Self.bob)
            XCTAssertEqual(liked.first?["likes"] as? [String], [Self.bob])
        }
    }

    func testAKeptPostPageIsSentAsWrittenUntilWhatItShowsChanges() async throws {
        let people = People()
        let harness = try await Harness.make(users: people.client)
        try await harness.app.contractTest { client in
            let id = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "t", content: ""))
            _ = try await Self.call(client, harness, .post, "/v1/posts/\(id)/comments", as: Self.carol, body: CommentRequest(content: "hi"))
            _ = try await Self.post(client, harness, id, as: Self.bob)
            let written = try await Self.call(client, harness, .get, "/v1/posts/\(id)", as: Self.bob)
            let kept = try await Self.call(client, harness, .get, "/v1/posts/\(id)", as: Self.alice)
            XCTAssertEqual(kept.status, .ok)
            XCTAssertEqual(kept.headers[.contentType], written.headers[.contentType])
            XCTAssertEqual(kept.body, written.body, "the kept page is the page as it was written")

            // The comment's author renamed, then the post's: each read shows the names of now.
            people.nicknames.withLock { $0 = [Self.carol: "carol2"] }
            let renamed = try await Self.post(client, harness, id, as: Self.bob)
            let comment = try XCTUnwrap((renamed["comments"] as? [[String: Any]])?.first)
            XCTAssertEqual((comment["creator"] as? [String: Any])?["nick"] as? String, "carol2")
            people.nicknames.withLock { $0[Self.alice] = "alice2" }
            let authorRenamed = try await Self.post(client, harness, id, as: Self.bob)
            XCTAssertEqual((authorRenamed["creator"] as? [String: Any])?["nick"] as? String, "alice2")

            // What one reader may not see is not sent from the kept page: a block, another app.
            people.blocks.withLock { $0[Self.bob] = [Self.carol] }
            let blocked = try await Self.post(client, harness, id, as: Self.bob)
            XCTAssertEqual((blocked["comments"] as? [[String: Any]])?.count, 0)
            let otherApp = try await Self.call(client, harness, .get, "/v1/posts/\(id)", as: Self.alice, app: "app-2")
            XCTAssertEqual(otherApp.status, .notFound)

            // A like is a commit: the page is rendered again, and so is its answer to an update.
            _ = try await Self.call(client, harness, .post, "/v1/posts/\(id)/like", as: Self.alice, body: LikeStatus(likeStatus: true))
            let liked = try await Self.post(client, harness, id, as: Self.alice)
            XCTAssertEqual(liked["likes"] as? [String], [Self.alice])
            let updated = try await Self.call(client, harness, .put, "/v1/posts/\(id)", as: Self.alice, body: PostUpdateRequest(title: "t2"))
            XCTAssertEqual(try JSON.object(updated.body)["title"] as? String, "t2")
            let reread = try await Self.post(client, harness, id, as: Self.alice)
            XCTAssertEqual(reread["title"] as? String, "t2")
        }
    }

    func testKeptPostsStayWithinTheirAppAndTheirReaders() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let secret = try await Self.create(
                client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "s", content: "", isPublic: false))
            let open = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "o", content: ""))
            for id in [secret, open] { _ = try await Self.post(client, harness, id, as: Self.alice) }
            let ownFeed = try await Self.feed(client, harness, as: Self.alice)
            XCTAssertEqual(ownFeed.count, 2)

            let hidden = try await Self.call(client, harness, .get, "/v1/posts/\(secret)", as: Self.bob)
            XCTAssertEqual(hidden.status, .notFound)
            let othersFeed = try await Self.feed(client, harness, as: Self.bob)
            XCTAssertEqual(othersFeed.map { $0["post_id"] as? String }, [open])
            let otherApp = try await Self.call(client, harness, .get, "/v1/posts/\(open)", as: Self.bob, app: "app-2")
            XCTAssertEqual(otherApp.status, .notFound)
        }
    }
}
