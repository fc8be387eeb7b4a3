import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// market-svc as a quotehub app's requests reach it (profile and public base from the gateway),
/// with Kakao's book search on the simulator and auth-svc's answers faked.
struct BookStoryFixture {
    static let base = "https://glint.test/quotehub"
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 5, count: 64)
    static let storyKeys: Set<String> = [
        "_id", "userId", "bookId", "quotes", "content", "storyImageURLs", "isPublic", "keywords", "folderIds", "createdAt", "updatedAt",
    ]
    static let bookKeys: Set<String> = [
        "_id", "title", "author", "translator", "introduction", "publisher", "publicationDate", "bookImageURL", "bookLink", "ISBN",
    ]
    static let themeKeys: Set<String> = ["_id", "userId", "name", "description", "folderImageURL", "isPublic", "createdAt", "updatedAt"]
    static let commentKeys: Set<String> = ["_id", "userId", "bookStoryId", "content", "parentCommentId", "createdAt", "updatedAt", "replies"]

    let harness: PostContractTests.Harness
    let kakao: KakaoBookSimulator

    static func make() async throws -> BookStoryFixture {
        let kakao = try await KakaoBookSimulator.start()
        let harness = try await PostContractTests.Harness.make(kakao: .live(url: kakao.url, restKey: KakaoBookSimulator.restKey, http: .shared))
        return BookStoryFixture(harness: harness, kakao: kakao)
    }

    func headers(_ user: String?, json: Bool = true) async throws -> HTTPFields {
        var extra = [(InternalHeader.appProfile, "quotehub"), (InternalHeader.publicBase, Self.base)]
        if json { extra.append(("Content-Type", "application/json")) }
        if let user { extra.append(("Authorization", "Bearer " + (try await harness.keys.token(user: user, app: PostContractTests.appID)))) }
        return TestEnvironment.fields(app: PostContractTests.appID, extra: extra)
    }

    /// `data` of a successful envelope, after checking the envelope's keys.
    static func data(_ response: TestResponse, _ status: HTTPResponse.Status = .ok, file: StaticString = #filePath, line: UInt = #line) throws -> Any
    {
        XCTAssertEqual(response.status, status, response.body.text, file: file, line: line)
        let body = try JSON.object(response.body, file: file, line: line)
        JSON.assertKeys(body, ["success", "message", "data"], file: file, line: line)
        XCTAssertEqual(body["success"] as? Bool, true, file: file, line: line)
        return try XCTUnwrap(body["data"], file: file, line: line)
    }

    static func object(
        _ response: TestResponse, _ status: HTTPResponse.Status = .ok, file: StaticString = #filePath, line: UInt = #line
    ) throws -> [String: Any] {
        try XCTUnwrap(try data(response, status, file: file, line: line) as? [String: Any], file: file, line: line)
    }

    static func objects(
        _ response: TestResponse, _ status: HTTPResponse.Status = .ok, file: StaticString = #filePath, line: UInt = #line
    ) throws -> [[String: Any]] {
        try XCTUnwrap(try data(response, status, file: file, line: line) as? [[String: Any]], file: file, line: line)
    }

    /// A paginated answer: its items and its numbers.
    static func page(
        _ response: TestResponse, file: StaticString = #filePath, line: UInt = #line
    ) throws -> (items: [[String: Any]], pagination: Pagination) {
        XCTAssertEqual(response.status, .ok, response.body.text, file: file, line: line)
        let body = try JSON.object(response.body, file: file, line: line)
        JSON.assertKeys(body, ["success", "message", "data", "pagination"], file: file, line: line)
        JSON.assertKeys(
            try XCTUnwrap(body["pagination"] as? [String: Any]), ["currentPage", "totalPages", "pageSize", "totalItems"], file: file, line: line)
        let decoded = try JSONDecoder().decode(PageEnvelope<JSONValueStandIn>.self, from: response.body)
        return (try XCTUnwrap(body["data"] as? [[String: Any]], file: file, line: line), decoded.pagination)
    }

    /// The canonical error's status as a quotehub app sees it.
    static func expect(_ status: Int, _ response: TestResponse, _ label: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let code = try JSONDecoder().decode(CanonicalError.self, from: response.body).code
        XCTAssertEqual(code.quotehubStatus, status, label.isEmpty ? response.body.text : label, file: file, line: line)
    }

    func multipart(_ parts: [MultipartBody.Part], user: String) async throws -> (HTTPFields, ByteBuffer) {
        let body = MultipartBody(parts: parts)
        var headers = try await self.headers(user, json: false)
        headers[.contentType] = body.contentType
        return (headers, body.buffer)
    }
}

/// Any JSON item, to decode a page's numbers without its items' type.
struct JSONValueStandIn: Codable, Sendable {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
}
