import Contracts
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

final class PostInteractionTests: XCTestCase {
    typealias Harness = PostContractTests.Harness
    static let alice = PostContractTests.alice, bob = PostContractTests.bob, carol = "6740369b3a36e82f532ec723"

    private static func create(
        _ client: some TestClientProtocol, _ harness: Harness, as user: String, _ request: PostCreateRequest
    ) async throws -> String {
        let response = try await client.execute(
            uri: "/v1/posts", method: .post, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: JSONCoding.encode(request))
        XCTAssertEqual(response.status, .ok, response.body.text)
        return try JSON.string(try JSON.object(response.body), "post_id")
    }

    private static func json(
        _ client: some TestClientProtocol, _ harness: Harness, _ method: HTTPRequest.Method, _ uri: String, as user: String,
        body: (some Encodable)? = Optional<EmptyAnswer>.none
    ) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: method, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: body.map { JSONCoding.encode($0) })
    }

    func testOnlyTheOwnerChangesOrDeletes() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let id = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "old", content: "#one"))
            let foreign = try await Self.json(client, harness, .put, "/v1/posts/\(id)", as: Self.bob, body: PostUpdateRequest(title: "hijack"))
            XCTAssertEqual(foreign.status.code, 445)
            let updated = try await Self.json(
                client, harness, .put, "/v1/posts/\(id)", as: Self.alice, body: PostUpdateRequest(title: "new", content: "#two"))
            XCTAssertEqual(updated.status, .ok)
            let object = try JSON.object(updated.body)
            XCTAssertEqual(object["title"] as? String, "new")
            XCTAssertEqual(object["hashTags"] as? [String], ["two"])
            let foreignDelete = try await Self.json(client, harness, .delete, "/v1/posts/\(id)", as: Self.bob)
            XCTAssertEqual(foreignDelete.status.code, 445)
            let deleted = try await Self.json(client, harness, .delete, "/v1/posts/\(id)", as: Self.alice)
            XCTAssertEqual(try JSON.object(deleted.body).count, 0)
            let gone = try await Self.json(client, harness, .get, "/v1/posts/\(id)", as: Self.alice)
            XCTAssertEqual(gone.status, .notFound)
        }
    }

    func testLikesAreIdempotentAndListed() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let first = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "a", content: ""))
            let second = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "b", content: ""))
            for _ in 0..<2 {
                let like = try await Self.json(client, harness, .post, "/v1/posts/\(first)/like", as: Self.bob, body: LikeStatus(likeStatus: true))
                XCTAssertEqual(try JSON.object(like.body) as? [String: Bool], ["like_status": true])
            }
            _ = try await Self.json(client, harness, .post, "/v1/posts/\(second)/like-2", as: Self.bob, body: LikeStatus(likeStatus: true))
            let post = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/\(first)", as: Self.alice).body)
            XCTAssertEqual(post["likes"] as? [String], [Self.bob], "liking twice keeps one like")
            XCTAssertEqual(post["likes2"] as? [String], [])
            let liked = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/likes/me", as: Self.bob).body)
            XCTAssertEqual((liked["data"] as? [[String: Any]])?.compactMap { $0["post_id"] as? String }, [first])
            let liked2 = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/likes-2/me", as: Self.bob).body)
            XCTAssertEqual((liked2["data"] as? [[String: Any]])?.compactMap { $0["post_id"] as? String }, [second])
            let unlike = try await Self.json(client, harness, .post, "/v1/posts/\(first)/like", as: Self.bob, body: LikeStatus(likeStatus: false))
            XCTAssertEqual(try JSON.object(unlike.body) as? [String: Bool], ["like_status": false])
            let after = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/\(first)", as: Self.alice).body)
            XCTAssertEqual(after["likes"] as? [String], [])
            let bad = try await Self.json(client, harness, .post, "/v1/posts/\(first)/like", as: Self.bob, body: RawBody(["like_status": "yes"]))
            XCTAssertEqual(bad.status, .badRequest)
        }
    }

    func testCommentsRepliesAndTheirOwners() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let post = try await Self.create(client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "t", content: ""))
            let comment = try await Self.json(
                client, harness, .post, "/v1/posts/\(post)/comments", as: Self.bob, body: CommentRequest(content: "nice"))
            XCTAssertEqual(comment.status, .ok, comment.body.text)
            let commentObject = try JSON.object(comment.body)
            JSON.assertKeys(commentObject, ["comment_id", "content", "createdAt", "creator", "replies"])
            let commentID = try JSON.string(commentObject, "comment_id")
            let reply = try await Self.json(
                client, harness, .post, "/v1/posts/\(post)/comments", as: Self.alice,
                body: CommentRequest(content: "thanks", parentCommentID: commentID))
            let replyObject = try JSON.object(reply.body)
            JSON.assertKeys(replyObject, ["comment_id", "content", "createdAt", "creator"])
            let replyToReply = try await Self.json(
                client, harness, .post, "/v1/posts/\(post)/comments", as: Self.bob,
                body: CommentRequest(content: "x", parentCommentID: try JSON.string(replyObject, "comment_id")))
            XCTAssertEqual(replyToReply.status, .notFound, "one level of replies")
            _ = try await Self.json(client, harness, .post, "/v1/posts/\(post)/comments", as: Self.carol, body: CommentRequest(content: "from carol"))

            let detail = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/\(post)", as: Self.alice).body)
            let comments = try XCTUnwrap(detail["comments"] as? [[String: Any]])
            XCTAssertEqual(comments.map { $0["content"] as? String }, ["nice", "from carol"])
            XCTAssertEqual((comments[0]["replies"] as? [[String: Any]])?.map { $0["content"] as? String }, ["thanks"])

            harness.blocks.byUser.withLock { $0[Self.alice] = [Self.carol] }
            let filtered = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/\(post)", as: Self.alice).body)
            XCTAssertEqual((filtered["comments"] as? [[String: Any]])?.count, 1, "a blocked user's comments vanish for the blocker")

            let foreignEdit = try await Self.json(
                client, harness, .put, "/v1/posts/\(post)/comments/\(commentID)", as: Self.alice, body: CommentRequest(content: "edited"))
            XCTAssertEqual(foreignEdit.status.code, 445)
            let edit = try await Self.json(
                client, harness, .put, "/v1/posts/\(post)/comments/\(commentID)", as: Self.bob, body: CommentRequest(content: "edited"))
            XCTAssertEqual(try JSON.object(edit.body)["content"] as? String, "edited")
            let empty = try await Self.json(client, harness, .post, "/v1/posts/\(post)/comments", as: Self.bob, body: CommentRequest(content: "  "))
            XCTAssertEqual(empty.status, .badRequest)
            let delete = try await Self.json(client, harness, .delete, "/v1/posts/\(post)/comments/\(commentID)", as: Self.bob)
            XCTAssertEqual(delete.status, .ok)
            let after = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/\(post)", as: Self.bob).body)
            XCTAssertEqual((after["comments"] as? [[String: Any]])?.map { $0["content"] as? String }, ["from carol"], "replies go with their comment")
        }
    }

    func testListsByUserHashTagAndSearch() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let walk = try await Self.create(
                client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "Morning walk", content: "#산책 with the dog"))
            _ = try await Self.create(client, harness, as: Self.bob, PostCreateRequest(category: "c", title: "Evening run", content: "#run"))
            let byUser = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/users/\(Self.alice)", as: Self.bob).body)
            XCTAssertEqual((byUser["data"] as? [[String: Any]])?.compactMap { $0["post_id"] as? String }, [walk])
            let tagged = try JSON.object(
                try await Self.json(client, harness, .get, "/v1/posts/hashtags?hashTag=%EC%82%B0%EC%B1%85", as: Self.bob).body)
            XCTAssertEqual((tagged["data"] as? [[String: Any]])?.compactMap { $0["post_id"] as? String }, [walk])
            XCTAssertEqual(tagged["next_cursor"] as? String, "0")
            let search = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/search?title=walk", as: Self.bob).body)
            JSON.assertKeys(search, ["data"])
            XCTAssertEqual((search["data"] as? [[String: Any]])?.compactMap { $0["title"] as? String }, ["Morning walk"])
            let noTag = try await Self.json(client, harness, .get, "/v1/posts/hashtags", as: Self.bob)
            XCTAssertEqual(noTag.status, .badRequest)
        }
    }

    func testPostFilesUploadAndServe() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 1, count: 64)
            let form = MultipartBody(parts: [
                .file("files", filename: "a.jpg", contentType: "image/jpeg", bytes: jpeg),
                .file("files", filename: "a.jpg", contentType: "image/jpeg", bytes: jpeg),
                .file("files", filename: "", contentType: "application/octet-stream", bytes: []),
            ])
            let upload = try await client.execute(
                uri: "/v1/posts/files", method: .post, headers: try await harness.headers(Self.alice, [("content-type", form.contentType)]),
                body: form.buffer)
            XCTAssertEqual(upload.status, .ok, upload.body.text)
            let files = try XCTUnwrap(try JSON.object(upload.body)["files"] as? [String])
            XCTAssertEqual(files.count, 2, "duplicate names are fine, the empty part is ignored")
            XCTAssertNotEqual(files[0], files[1])
            let served = try await client.execute(uri: "/v1" + files[0], method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
            XCTAssertEqual(Array(served.body.readableBytesView), jpeg)
            XCTAssertEqual(served.headers[.contentType], "image/jpeg")
            let six = MultipartBody(parts: Array(repeating: .file("files", filename: "x.jpg", contentType: "image/jpeg", bytes: jpeg), count: 6))
            let tooMany = try await client.execute(
                uri: "/v1/posts/files", method: .post, headers: try await harness.headers(Self.alice, [("content-type", six.contentType)]),
                body: six.buffer)
            XCTAssertEqual(tooMany.status, .badRequest)
            let text = MultipartBody(parts: [.file("files", filename: "x.jpg", contentType: "image/jpeg", bytes: Array("hello".utf8))])
            let notImage = try await client.execute(
                uri: "/v1/posts/files", method: .post, headers: try await harness.headers(Self.alice, [("content-type", text.contentType)]),
                body: text.buffer)
            XCTAssertEqual(notImage.status, .badRequest)
            let id = try await Self.create(
                client, harness, as: Self.alice, PostCreateRequest(category: "c", title: "pics", content: "", files: files))
            let post = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts/\(id)", as: Self.bob).body)
            XCTAssertEqual(post["files"] as? [String], files)
        }
    }

    func testProductIDIsRecordedAndFilters() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            for product in ["spotchat", "dogwalk", "dogwalk"] {
                let response = try await client.execute(
                    uri: "/v1/posts", method: .post,
                    headers: try await harness.headers(Self.alice, [("content-type", "application/json"), ("ProductId", product)]),
                    body: JSONCoding.encode(PostCreateRequest(category: "c", title: product, content: "")))
                XCTAssertEqual(response.status, .ok)
            }
            let dogwalk = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts?product_id=dogwalk", as: Self.bob).body)
            let titles = (dogwalk["data"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            XCTAssertEqual(titles, ["dogwalk", "dogwalk"])
            let all = try JSON.object(try await Self.json(client, harness, .get, "/v1/posts", as: Self.bob).body)
            XCTAssertEqual((all["data"] as? [Any])?.count, 3)
        }
    }
}

/// A JSON object with string values, for wrongly typed requests.
struct RawBody: Encodable {
    let object: [String: String]
    init(_ object: [String: String]) { self.object = object }
    func encode(to encoder: any Encoder) throws { try object.encode(to: encoder) }
}
