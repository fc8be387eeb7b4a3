import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// API.md §9 books and stories, key by key, in the envelope.
final class BookStoryContractTests: XCTestCase {
    typealias F = BookStoryFixture
    static let reader = "6740369b3a36e82f532ec701", other = "6740369b3a36e82f532ec702"

    func testBookSearchStoresEveryBookByItsFirstISBN() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let query = "김동인".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
            let first = try F.object(
                try await client.execute(uri: "/book/search?query=\(query)", method: .get, headers: try await fixture.headers(nil)))
            JSON.assertKeys(first, ["documents", "meta"])
            let meta = try XCTUnwrap(first["meta"] as? [String: Any])
            JSON.assertKeys(meta, ["is_end", "pageable_count", "total_count"])
            XCTAssertEqual(meta["is_end"] as? Bool, true)
            XCTAssertEqual(meta["total_count"] as? Int, 3)
            let documents = try XCTUnwrap(first["documents"] as? [[String: Any]])
            XCTAssertEqual(documents.count, 3)
            for book in documents { JSON.assertKeys(book, F.bookKeys) }
            XCTAssertEqual(documents[0]["author"] as? [String], ["김동인"])
            XCTAssertEqual((documents[0]["ISBN"] as? [String])?.first?.count, 13)
            let again = try F.object(
                try await client.execute(uri: "/book/search?query=\(query)&page=1", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(
                (again["documents"] as? [[String: Any]])?.map { $0["_id"] as? String }, documents.map { $0["_id"] as? String },
                "a book found again keeps its id")

            let today = try F.objects(try await client.execute(uri: "/book/todayBooks", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(
                Set(today.compactMap { $0["_id"] as? String }), Set(documents.compactMap { $0["_id"] as? String }),
                "today's books come from the stored ones")

            fixture.kakao.fail(next: 1)
            let failed = try await client.execute(uri: "/book/search?query=\(query)", method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(failed.status.code, 502)
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: failed.body).code, .upstreamFailed)
            try F.expect(400, try await client.execute(uri: "/book/search", method: .get, headers: try await fixture.headers(nil)))
            try F.expect(400, try await client.execute(uri: "/book/search?query=a&page=51", method: .get, headers: try await fixture.headers(nil)))
        }
    }

    func testStoriesAsJSONAndMultipartWithPagesAndPrivacy() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await Self.book(client, fixture)
            func create(_ user: String, _ fields: StoryFields) async throws -> [String: Any] {
                let answer = try await client.execute(
                    uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(user), body: JSONCoding.encode(fields))
                return try F.object(answer, .created)
            }
            let json = try await create(
                Self.reader,
                StoryFields(
                    bookId: bookID, quotes: [StoryQuote(quote: "나는 그대를 사랑하오", page: 12), StoryQuote(quote: "봄이 오면")], isPublic: true,
                    content: "  첫 문장이 좋았다 ", keywords: ["사랑", "봄", "사랑"]
                ))
            JSON.assertKeys(json, F.storyKeys)
            XCTAssertEqual(json["content"] as? String, "첫 문장이 좋았다")
            XCTAssertEqual(json["keywords"] as? [String], ["사랑", "봄"])
            let quotes = try JSONSerialization.data(withJSONObject: try XCTUnwrap(json["quotes"]))
            XCTAssertEqual(
                try JSONDecoder().decode([StoryQuote].self, from: quotes), [StoryQuote(quote: "나는 그대를 사랑하오", page: 12), StoryQuote(quote: "봄이 오면")])
            XCTAssertNil((json["quotes"] as? [[String: Any]])?[1]["page"], "no page, no key")
            XCTAssertEqual(json["isPublic"] as? Bool, true)
            XCTAssertEqual(json["folderIds"] as? [String], [])
            let author = try XCTUnwrap(json["userId"] as? [String: Any])
            JSON.assertKeys(author, ["_id", "nickname", "profileImage"])
            XCTAssertEqual(author["_id"] as? String, Self.reader)
            JSON.assertKeys(try XCTUnwrap(json["bookId"] as? [String: Any]), F.bookKeys)

            let (headers, body) = try await fixture.multipart(
                [
                    .field("bookId", bookID), .field("quotes", #"[{"quote":"비밀의 문장","page":3}]"#), .field("isPublic", "false"),
                    .field("keywords", #"["비밀"]"#), .field("content", "나만 보는 기록"),
                    .file("storyImage", filename: "a.png", contentType: "image/png", bytes: F.png),
                    .file("storyImage", filename: "b.png", contentType: "image/png", bytes: F.png),
                ], user: Self.reader)
            let multipart = try F.object(
                try await client.execute(uri: "/bookstories/createBookStory", method: .post, headers: headers, body: body), .created)
            let images = try XCTUnwrap(multipart["storyImageURLs"] as? [String])
            XCTAssertEqual(images.count, 2)
            XCTAssertTrue(images.allSatisfy { $0.hasPrefix(F.base + "/files/bookstories/") }, "\(images)")
            XCTAssertEqual(multipart["isPublic"] as? Bool, false)
            let privateID = try JSON.string(multipart, "_id")
            let served = try await client.execute(
                uri: String(images[0].dropFirst(F.base.count)), method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(served.status, .ok)
            XCTAssertEqual(Array(served.body.readableBytesView), F.png)

            // A private story is its author's alone.
            try F.expect(
                404, try await client.execute(uri: "/bookstories/\(privateID)", method: .get, headers: try await fixture.headers(Self.other)))
            try F.expect(404, try await client.execute(uri: "/bookstories/\(privateID)", method: .get, headers: try await fixture.headers(nil)))
            let mine = try F.object(
                try await client.execute(uri: "/bookstories/\(privateID)", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(mine["_id"] as? String, privateID)

            for index in 0..<11 {
                _ = try await create(
                    Self.other, StoryFields(bookId: bookID, quotes: [StoryQuote(quote: "문장 \(index)")], isPublic: true, keywords: ["독서"]))
            }
            let firstPage = try F.page(
                try await client.execute(uri: "/bookstories/public?page=1&pageSize=5", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(firstPage.pagination, Pagination(currentPage: 1, pageSize: 5, totalItems: 12))
            XCTAssertEqual(firstPage.pagination.totalPages, 3)
            XCTAssertEqual(firstPage.items.first?["quotes"] as? [[String: String]], [["quote": "문장 10"]], "newest first")
            for item in firstPage.items { JSON.assertKeys(item, F.storyKeys.subtracting(["content"])) }
            let lastPage = try F.page(
                try await client.execute(uri: "/bookstories/public?page=3&pageSize=5", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(lastPage.items.count, 2)
            XCTAssertEqual(lastPage.items.last?["_id"] as? String, json["_id"] as? String)
            XCTAssertEqual(
                lastPage.items.last?["bookId"] as? NSDictionary, json["bookId"] as? NSDictionary,
                "a page's story carries its book, read with the page")
            let defaults = try F.page(try await client.execute(uri: "/bookstories/public", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(defaults.pagination, Pagination(currentPage: 1, pageSize: 10, totalItems: 12))

            let my = try F.page(try await client.execute(uri: "/bookstories/my", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(my.pagination.totalItems, 2, "one's own list has the private story too")
            let friend = try F.page(
                try await client.execute(uri: "/bookstories/friend/\(Self.reader)", method: .get, headers: try await fixture.headers(Self.other)))
            XCTAssertEqual(friend.items.map { $0["_id"] as? String }, [json["_id"] as? String])

            func search(_ path: String, _ keyword: String, _ user: String?, query: String = "") async throws -> [String?] {
                let encoded = keyword.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
                return try F.page(
                    try await client.execute(uri: "\(path)?keyword=\(encoded)\(query)", method: .get, headers: try await fixture.headers(user))
                ).items.map { $0["_id"] as? String }
            }
            let byQuote = try await search("/bookstories/public/search", "사랑", nil)
            XCTAssertEqual(byQuote, [json["_id"] as? String], "a quote's Korean substring")
            let byContent = try await search("/bookstories/public/search", "첫 문장", nil)
            XCTAssertEqual(byContent, [json["_id"] as? String], "the content")
            let othersPrivate = try await search("/bookstories/public/search", "비밀", Self.other)
            XCTAssertEqual(othersPrivate, [], "private stories are not found by others")
            let ownPrivate = try await search("/bookstories/my/search", "비밀", Self.reader)
            XCTAssertEqual(ownPrivate, [privateID])
            let friendKeyword = try await search("/bookstories/friend/search/\(Self.other)", "독서", nil)
            XCTAssertEqual(friendKeyword.count, 10)
            for literal in ["%", "_", "\\"] {
                let found = try await search("/bookstories/public/search", literal, nil)
                XCTAssertEqual(found, [], "\(literal) is a character like any other: no story holds it")
            }
            // Every public story holds "문장". Paged by two, a search gives them newest first
            // whether a page is filled walking the newest (pages 1–2: many matches for the
            // page) or from the matches alone (pages 3–6, `StoryQuery.fewMatches`).
            var pagedSearch: [String?] = []
            for page in 1...6 { pagedSearch += try await search("/bookstories/public/search", "문장", nil, query: "&page=\(page)&pageSize=2") }
            let everyone = try F.page(
                try await client.execute(uri: "/bookstories/public?pageSize=20", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(everyone.items.count, 12)
            XCTAssertEqual(pagedSearch, everyone.items.map { $0["_id"] as? String })

            let count = try await client.execute(uri: "/bookstories/count", method: .get, headers: try await fixture.headers(Self.reader))
            XCTAssertEqual(try F.data(count) as? Int, 2)
            let publicCount = try await client.execute(
                uri: "/bookstories/count/\(Self.reader)", method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(try F.data(publicCount) as? Int, 1)
            try F.expect(401, try await client.execute(uri: "/bookstories/count", method: .get, headers: try await fixture.headers(nil)))

            // Update: an empty content clears it; absent fields stay; new images replace the old.
            let storyID = try JSON.string(json, "_id")
            let updated = try F.object(
                try await client.execute(
                    uri: "/bookstories/update/\(storyID)", method: .put, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(StoryFields(content: "", keywords: []))
                ))
            XCTAssertNil(updated["content"])
            XCTAssertEqual(updated["keywords"] as? [String], [])
            XCTAssertEqual((updated["quotes"] as? [Any])?.count, 2)
            let (replaceHeaders, replaceBody) = try await fixture.multipart(
                [.file("storyImage", filename: "c.png", contentType: "image/png", bytes: F.png)], user: Self.reader)
            let replaced = try F.object(
                try await client.execute(uri: "/bookstories/update/\(privateID)", method: .put, headers: replaceHeaders, body: replaceBody))
            XCTAssertEqual((replaced["storyImageURLs"] as? [String])?.count, 1)
            let gone = try await client.execute(uri: String(images[0].dropFirst(F.base.count)), method: .get, headers: try await fixture.headers(nil))
            XCTAssertEqual(gone.status, .notFound, "the replaced image is removed")
            try F.expect(
                403,
                try await client.execute(
                    uri: "/bookstories/update/\(storyID)", method: .put, headers: try await fixture.headers(Self.other),
                    body: JSONCoding.encode(StoryFields(content: "x"))
                ))

            // Totals follow a story made private and a story removed.
            _ = try F.object(
                try await client.execute(
                    uri: "/bookstories/update/\(storyID)", method: .put, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(StoryFields(isPublic: false))))
            let afterPrivate = try F.page(try await client.execute(uri: "/bookstories/public", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(afterPrivate.pagination.totalItems, 11)
            let deleted = try await client.execute(
                uri: "/bookstories/delete/\(storyID)", method: .delete, headers: try await fixture.headers(Self.reader))
            XCTAssertTrue(try F.data(deleted) is NSNull)
            let afterDelete = try F.page(
                try await client.execute(uri: "/bookstories/my", method: .get, headers: try await fixture.headers(Self.reader)))
            XCTAssertEqual(afterDelete.pagination.totalItems, 1)
            try F.expect(404, try await client.execute(uri: "/bookstories/\(storyID)", method: .get, headers: try await fixture.headers(Self.reader)))
        }
    }

    func testLimits() async throws {
        let fixture = try await F.make()
        try await fixture.harness.app.contractTest { client in
            let bookID = try await Self.book(client, fixture)
            func refused(_ fields: StoryFields, _ label: String) async throws {
                let answer = try await client.execute(
                    uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.reader),
                    body: JSONCoding.encode(fields))
                try F.expect(400, answer, label)
            }
            let quote = [StoryQuote(quote: "문장")]
            try await refused(StoryFields(bookId: bookID, quotes: [], isPublic: true), "no quotes")
            try await refused(StoryFields(bookId: bookID, quotes: Array(repeating: StoryQuote(quote: "a"), count: 11), isPublic: true), "11 quotes")
            try await refused(
                StoryFields(bookId: bookID, quotes: [StoryQuote(quote: String(repeating: "가", count: 501))], isPublic: true), "a long quote")
            try await refused(
                StoryFields(bookId: bookID, quotes: quote, isPublic: true, content: String(repeating: "나", count: 1001)), "long content")
            try await refused(StoryFields(bookId: bookID, quotes: quote, isPublic: true, keywords: ["아홉글자키워드다요"]), "a 9-character keyword")
            try await refused(StoryFields(bookId: bookID, quotes: quote, isPublic: true, keywords: (0..<11).map { "k\($0)" }), "11 keywords")
            try await refused(StoryFields(bookId: "nope", quotes: quote, isPublic: true), "a malformed book id")
            try await refused(StoryFields(bookId: bookID, quotes: quote, isPublic: true, folderIds: ["x"]), "a malformed folder id")
            let unknownBook = try await client.execute(
                uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(Self.reader),
                body: JSONCoding.encode(StoryFields(bookId: "6740369b3a36e82f532ec7ff", quotes: quote, isPublic: true)))
            try F.expect(404, unknownBook)
            let (headers, body) = try await fixture.multipart(
                [.field("bookId", bookID), .field("quotes", "not json"), .field("isPublic", "true")], user: Self.reader)
            try F.expect(400, try await client.execute(uri: "/bookstories/createBookStory", method: .post, headers: headers, body: body))
            let (yesHeaders, yesBody) = try await fixture.multipart(
                [.field("bookId", bookID), .field("quotes", #"[{"quote":"a"}]"#), .field("isPublic", "yes")], user: Self.reader)
            try F.expect(400, try await client.execute(uri: "/bookstories/createBookStory", method: .post, headers: yesHeaders, body: yesBody))
            let anonymous = try await client.execute(
                uri: "/bookstories/createBookStory", method: .post, headers: try await fixture.headers(nil),
                body: JSONCoding.encode(StoryFields(bookId: bookID, quotes: quote, isPublic: true)))
            try F.expect(401, anonymous)
            for bad in ["page=0", "pageSize=0", "page=x", "pageSize=-3"] {
                try F.expect(
                    400, try await client.execute(uri: "/bookstories/public?\(bad)", method: .get, headers: try await fixture.headers(nil)), bad)
            }
            let capped = try F.page(
                try await client.execute(uri: "/bookstories/public?pageSize=500", method: .get, headers: try await fixture.headers(nil)))
            XCTAssertEqual(capped.pagination.pageSize, 100)
            var broken = try await fixture.headers(nil)
            broken[.authorization] = "Bearer not-a-token"
            try F.expect(401, try await client.execute(uri: "/bookstories/public", method: .get, headers: broken), "a token sent must be valid")
        }
    }

    /// A stored book's id (found through the simulator).
    static func book(_ client: some TestClientProtocol, _ fixture: F) async throws -> String {
        let found = try F.object(
            try await client.execute(uri: "/book/search?query=%EC%A7%84%EB%8B%AC%EB%9E%98", method: .get, headers: try await fixture.headers(nil)))
        return try JSON.string(try XCTUnwrap((found["documents"] as? [[String: Any]])?.first), "_id")
    }
}
