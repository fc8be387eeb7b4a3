import Contracts
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// SpotChat's post flow as the released app sends it (issue 19): an upload whose only part is
/// the 0-byte one it sends when no picture was chosen, then a post with `category: ""`.
final class SpotChatRequestTests: XCTestCase {
    typealias Harness = PostContractTests.Harness

    func testAnUploadOfOnlyAnEmptyPartAndAnEmptyCategory() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let empty = MultipartBody(parts: [.file("files", filename: "", contentType: "application/octet-stream", bytes: [])])
            let upload = try await client.execute(
                uri: "/v1/posts/files", method: .post,
                headers: try await harness.headers(PostContractTests.alice, [("content-type", empty.contentType)]), body: empty.buffer)
            XCTAssertEqual(upload.status, .ok, upload.body.text)
            XCTAssertEqual(try JSON.object(upload.body) as? [String: [String]], ["files": []])
            let none = MultipartBody(parts: [.field("title", "no file parts at all")])
            let refused = try await client.execute(
                uri: "/v1/posts/files", method: .post,
                headers: try await harness.headers(PostContractTests.alice, [("content-type", none.contentType)]), body: none.buffer)
            XCTAssertEqual(refused.status, .badRequest, "a request without any files part is still refused")

            let created = try await client.execute(
                uri: "/v1/posts", method: .post, headers: try await harness.headers(PostContractTests.alice, [("content-type", "application/json")]),
                body: ByteBuffer(
                    string: ##"{"category":"","title":"산책","price":1000,"content":"#산책 같이 해요","files":[],"longitude":126.978,"latitude":37.5665}"##)
            )
            XCTAssertEqual(created.status, .ok, created.body.text)
            let post = try JSON.object(created.body)
            XCTAssertEqual(post["category"] as? String, "")
            XCTAssertEqual(post["hashTags"] as? [String], ["산책"])
            let located = try await harness.geo.event(0)
            XCTAssertEqual(located.category, "", "the map learns of it")
            let long = try await client.execute(
                uri: "/v1/posts", method: .post, headers: try await harness.headers(PostContractTests.alice, [("content-type", "application/json")]),
                body: JSONCoding.encode(PostCreateRequest(category: String(repeating: "c", count: 51), title: "t", content: ""))
            )
            XCTAssertEqual(long.status, .badRequest)
            XCTAssertEqual(try JSON.object(long.body)["message"] as? String, "category must be at most 50 characters")
        }
    }
}
