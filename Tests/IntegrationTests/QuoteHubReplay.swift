import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import ServiceKit
import TestSupport
import XCTest

/// The QuoteHub app's sequence of requests, as a client under `/quotehub` sends them (no key,
/// Bearer tokens, JSON and multipart), checking what the app reads of each answer.
struct QuoteHubReplay {
    let suite: AuthAndGateway
    let apple: AppleSimulator
    let clientID: String
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 9, count: 80)

    var base: String { suite.gatewayURL + "/quotehub" }

    /// A request as the app sends it; every answer is checked against the quotehub document
    /// (errors as the gateway renders them).
    func call(_ method: HTTPMethod, _ path: String, _ token: String? = nil, json: String? = nil) async throws -> HTTPProbe.Answer {
        var headers: [(String, String)] = token.map { [("Authorization", "Bearer " + $0)] } ?? []
        if json != nil { headers.append(("Content-Type", "application/json")) }
        let answer = try await HTTPProbe.call(method, base + path, headers: headers, body: json.map { ByteBuffer(string: $0) })
        let route = String(path.split(separator: "?", maxSplits: 1)[0])
        let violations = try DocumentCheck.violations(
            profile: .quotehub, method: method.rawValue, path: route, status: answer.status,
            json: Data(answer.body.readableBytesView), from: .gateway)
        XCTAssert(violations.isEmpty, "\(method) \(path) (\(answer.status)) departs from the quotehub document: \(violations)")
        return answer
    }

    /// `data` of a success (200 or 201).
    func data(
        _ method: HTTPMethod, _ path: String, _ token: String? = nil, json: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Any {
        let answer = try await call(method, path, token, json: json)
        XCTAssertTrue([200, 201].contains(answer.status), "\(path): \(answer.status) \(answer.body.text)", file: file, line: line)
        let body = try JSON.object(answer.body)
        XCTAssertEqual(body["success"] as? Bool, true, path, file: file, line: line)
        return body["data"] ?? NSNull()
    }

    func object(
        _ method: HTTPMethod, _ path: String, _ token: String? = nil, json: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [String: Any] {
        let data = try await data(method, path, token, json: json, file: file, line: line)
        return try XCTUnwrap(data as? [String: Any], path, file: file, line: line)
    }

    /// A page: its items' ids and its numbers.
    func page(_ path: String, _ token: String? = nil, file: StaticString = #filePath, line: UInt = #line) async throws -> ([String], Pagination) {
        let answer = try await call(.GET, path, token)
        XCTAssertEqual(answer.status, 200, "\(path): \(answer.body.text)", file: file, line: line)
        let body = try JSON.object(answer.body)
        let items = try XCTUnwrap(body["data"] as? [[String: Any]], path, file: file, line: line)
        let pagination = try JSONDecoder().decode(Pagination.self, from: JSONSerialization.data(withJSONObject: try XCTUnwrap(body["pagination"])))
        return (items.compactMap { $0["_id"] as? String }, pagination)
    }

    /// An error envelope with its status.
    func refused(_ status: Int, _ answer: HTTPProbe.Answer, paginated: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(answer.status, status, answer.body.text, file: file, line: line)
        let body = try JSON.object(answer.body)
        XCTAssertEqual(body["success"] as? Bool, false, file: file, line: line)
        XCTAssertNotNil(body["message"] as? String, file: file, line: line)
        if paginated {
            XCTAssertEqual((body["data"] as? [Any])?.count, 0, file: file, line: line)
            XCTAssertNotNil(body["pagination"] as? [String: Any], file: file, line: line)
        }
    }

    func signIn(_ subject: String) async throws -> (id: String, token: String, isNew: Bool) {
        let data = try await object(.POST, "/auth/apple/callback", json: #"{"code":"\#(apple.issueCode(subject: subject, clientID: clientID))"}"#)
        let user = try XCTUnwrap(data["user"] as? [String: Any])
        return (try JSON.string(user, "_id"), try JSON.string(data, "accessToken"), try XCTUnwrap(data["isNewUser"] as? Bool))
    }

    func run() async throws {
        // The app's API document, as its developers read it: no key, no token.
        let document = try await HTTPProbe.call(.GET, suite.gatewayURL + "/openapi/quotehub.json")
        XCTAssertEqual(document.status, 200)
        XCTAssertNotNil((try JSON.object(document.body)["paths"] as? [String: Any])?["/auth/apple/callback"])

        // Sign-in: new, then returning.
        let anna = try await signIn("quote.anna")
        XCTAssertTrue(anna.isNew)
        let returning = try await signIn("quote.anna")
        XCTAssertEqual(returning.id, anna.id)
        XCTAssertFalse(returning.isNew)
        let ben = try await signIn("quote.ben")

        // Nickname flow.
        let generated = try JSON.string(try await object(.GET, "/auth/generate-nickname"), "nickname")
        let encoded = generated.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
        let freeBefore = try await object(.GET, "/auth/check-nickname?nickname=\(encoded)")["available"] as? Bool
        XCTAssertEqual(freeBefore, true)
        let renamed = try await object(.PUT, "/auth/change-nickname", anna.token, json: #"{"nickname":"\#(generated)"}"#)
        XCTAssertEqual(renamed["nickname"] as? String, generated)
        let freeAfter = try await object(.GET, "/auth/check-nickname?nickname=\(encoded)")["available"] as? Bool
        XCTAssertEqual(freeAfter, false)

        // Books, as a guest.
        let found = try await object(.GET, "/book/search?query=%EA%B9%80%EC%9C%A0%EC%A0%95&page=1")
        let books = try XCTUnwrap(found["documents"] as? [[String: Any]])
        XCTAssertEqual(books.count, 2, "김유정: 봄봄, 동백꽃")
        let bookID = try JSON.string(books[0], "_id")
        let todayData = try await data(.GET, "/book/todayBooks")
        let today = try XCTUnwrap(todayData as? [Any])
        XCTAssertEqual(today.count, 2)

        // A story as JSON, one as multipart with two images, a private one.
        let jsonStory = try JSON.string(
            try await object(
                .POST, "/bookstories/createBookStory", anna.token,
                json: """
                    {"bookId":"\(bookID)","quotes":[{"quote":"봄이 와도 장인은 나를 장가보내 주지 않는다","page":7}],"isPublic":true,"content":"웃긴 소설","keywords":["해학","봄"]}
                    """), "_id")
        let form = MultipartBody(parts: [
            .field("bookId", bookID), .field("quotes", #"[{"quote":"점순이의 닭","page":3},{"quote":"동백꽃 향기"}]"#), .field("isPublic", "true"),
            .field("keywords", #"["동백꽃"]"#), .field("content", "두 장의 사진"),
            .file("storyImage", filename: "one.png", contentType: "image/png", bytes: Self.png),
            .file("storyImage", filename: "two.png", contentType: "image/png", bytes: Self.png),
        ])
        let created = try await HTTPProbe.call(
            .POST, base + "/bookstories/createBookStory",
            headers: [
                ("Authorization", "Bearer " + anna.token), ("Content-Type", form.contentType),
            ], body: form.buffer)
        XCTAssertEqual(created.status, 201, created.body.text)
        let multipart = try XCTUnwrap(try JSON.object(created.body)["data"] as? [String: Any])
        let multipartStory = try JSON.string(multipart, "_id")
        let images = try XCTUnwrap(multipart["storyImageURLs"] as? [String])
        XCTAssertEqual(images.count, 2)
        XCTAssertTrue(images[0].hasPrefix(base + "/files/bookstories/"), images[0])
        let image = try await HTTPProbe.call(.GET, images[0])
        XCTAssertEqual(image.status, 200, "the client loads the image directly, with no key or token")
        XCTAssertEqual(Array(image.body.readableBytesView), Self.png)
        let privateStory = try JSON.string(
            try await object(
                .POST, "/bookstories/createBookStory", anna.token,
                json: """
                    {"bookId":"\(bookID)","quotes":[{"quote":"나만 아는 문장"}],"isPublic":false}
                    """), "_id")
        let bensStory = try JSON.string(
            try await object(
                .POST, "/bookstories/createBookStory", ben.token,
                json: """
                    {"bookId":"\(bookID)","quotes":[{"quote":"벤의 봄 문장"}],"isPublic":true,"keywords":["봄"]}
                    """), "_id")

        // Lists and searches with their numbers.
        let (publicIDs, publicPages) = try await page("/bookstories/public?page=1&pageSize=2")
        XCTAssertEqual(publicIDs, [bensStory, multipartStory])
        XCTAssertEqual(publicPages, Pagination(currentPage: 1, pageSize: 2, totalItems: 3))
        XCTAssertEqual(publicPages.totalPages, 2)
        let (secondIDs, _) = try await page("/bookstories/public?page=2&pageSize=2")
        XCTAssertEqual(secondIDs, [jsonStory])
        let (myIDs, myPages) = try await page("/bookstories/my", anna.token)
        XCTAssertEqual(myIDs, [privateStory, multipartStory, jsonStory])
        XCTAssertEqual(myPages.totalItems, 3)
        let (friendIDs, _) = try await page("/bookstories/friend/\(anna.id)", ben.token)
        XCTAssertEqual(friendIDs, [multipartStory, jsonStory])
        let (springIDs, springPages) = try await page("/bookstories/public/search?keyword=%EB%B4%84&pageSize=10")
        XCTAssertEqual(springIDs, [bensStory, jsonStory], "봄 in keywords or quotes")
        XCTAssertEqual(springPages.totalItems, 2)
        let (mySearch, _) = try await page("/bookstories/my/search?keyword=%EB%82%98%EB%A7%8C", anna.token)
        XCTAssertEqual(mySearch, [privateStory])
        let (friendSearch, _) = try await page("/bookstories/friend/search/\(anna.id)?keyword=%EB%8F%99%EB%B0%B1", ben.token)
        XCTAssertEqual(friendSearch, [multipartStory])
        let ownCount = try await data(.GET, "/bookstories/count", anna.token) as? Int
        XCTAssertEqual(ownCount, 3)
        let publicCount = try await data(.GET, "/bookstories/count/\(anna.id)") as? Int
        XCTAssertEqual(publicCount, 2)

        let guestRead = try await object(.GET, "/bookstories/\(multipartStory)")
        XCTAssertEqual(guestRead["storyImageURLs"] as? [String], images, "a guest reads a public story page")
        // A private story is 404 to others and to guests.
        try refused(404, try await call(.GET, "/bookstories/\(privateStory)", ben.token))
        try refused(404, try await call(.GET, "/bookstories/\(privateStory)"))
        let ownPrivate = try await object(.GET, "/bookstories/\(privateStory)", anna.token)["_id"] as? String
        XCTAssertEqual(ownPrivate, privateStory)

        // Themes and their stories.
        let theme = try JSON.string(
            try await object(.POST, "/folder/create", anna.token, json: #"{"name":"봄의 책","description":"봄에 읽은 책","isPublic":true}"#), "_id")
        _ = try await object(.PUT, "/bookstories/update/\(jsonStory)", anna.token, json: #"{"folderIds":["\#(theme)"]}"#)
        let (themes, _) = try await page("/folder/all")
        XCTAssertEqual(themes, [theme])
        let (inTheme, inThemePages) = try await page("/folder/public/\(theme)")
        XCTAssertEqual(inTheme, [jsonStory])
        XCTAssertEqual(inThemePages.totalItems, 1)
        let (friendTheme, _) = try await page("/folder/friend/\(anna.id)/\(theme)", ben.token)
        XCTAssertEqual(friendTheme, [jsonStory])
        let (myThemes, _) = try await page("/folder/myfolder", anna.token)
        XCTAssertEqual(myThemes, [theme])

        // Comments: one reply, a refused reply to it.
        let comment = try JSON.string(
            try await object(.POST, "/bookstoriesComments", ben.token, json: #"{"bookStoryId":"\#(jsonStory)","content":"재밌네요"}"#), "_id")
        let reply = try JSON.string(
            try await object(
                .POST, "/bookstoriesComments", anna.token,
                json: #"{"bookStoryId":"\#(jsonStory)","content":"고마워요","parentCommentId":"\#(comment)"}"#), "_id")
        try refused(
            400,
            try await call(
                .POST, "/bookstoriesComments", ben.token,
                json: #"{"bookStoryId":"\#(jsonStory)","content":"답글의 답글","parentCommentId":"\#(reply)"}"#))
        let comments = try await call(.GET, "/bookstoriesComments/\(jsonStory)")
        let threads = try XCTUnwrap(try JSON.object(comments.body)["data"] as? [[String: Any]])
        XCTAssertEqual(threads.map { $0["_id"] as? String }, [comment])
        XCTAssertEqual((threads[0]["replies"] as? [[String: Any]])?.map { $0["_id"] as? String }, [reply])
        let commentCount = try await data(.GET, "/bookstoriesComments/count/\(jsonStory)") as? Int
        XCTAssertEqual(commentCount, 2)

        // Errors as the client decodes them.
        try refused(401, try await call(.GET, "/bookstories/my"), paginated: true)
        try refused(401, try await call(.POST, "/bookstoriesComments", json: #"{"bookStoryId":"\#(jsonStory)","content":"x"}"#))
        try refused(400, try await call(.GET, "/bookstories/public?page=0"), paginated: true)

        // A block hides the blocked reader's stories from the blocker's very next feed and search
        // (API.md §9; App Store guideline 1.2); an unblock brings them back as fast.
        let (feedBefore, _) = try await page("/bookstories/public", anna.token)
        XCTAssertTrue(feedBefore.contains(bensStory))
        _ = try await data(.POST, "/block-report/block", anna.token, json: #"{"targetUserId":"\#(ben.id)"}"#)
        let (blockedFeed, _) = try await page("/bookstories/public", anna.token)
        XCTAssertFalse(blockedFeed.contains(bensStory), "the blocked reader's story left the blocker's next feed")
        let (blockedSearch, _) = try await page("/bookstories/public/search?keyword=%EB%B4%84", anna.token)
        XCTAssertEqual(blockedSearch, [jsonStory])
        let (guestFeed, _) = try await page("/bookstories/public")
        XCTAssertTrue(guestFeed.contains(bensStory), "guests see everything public")
        _ = try await data(.POST, "/block-report/unblock", anna.token, json: #"{"targetUserId":"\#(ben.id)"}"#)
        let (unblockedSearch, _) = try await page("/bookstories/public/search?keyword=%EB%B4%84", anna.token)
        XCTAssertTrue(unblockedSearch.contains(bensStory), "back in the next search after the unblock")
        _ = try await data(.POST, "/block-report/block", anna.token, json: #"{"targetUserId":"\#(ben.id)"}"#)

        // Revoke: the account and its public stories are gone when it answers.
        let revoked = try await object(.POST, "/auth/revoke", ben.token)["revoked"] as? Bool
        XCTAssertEqual(revoked, true)
        let (afterRevoke, afterRevokePages) = try await page("/bookstories/public")
        XCTAssertFalse(afterRevoke.contains(bensStory), "the revoked account's public stories are gone for the next guest")
        XCTAssertEqual(afterRevokePages.totalItems, 2)
        let commentsLeft = try await data(.GET, "/bookstoriesComments/count/\(jsonStory)") as? Int
        XCTAssertEqual(commentsLeft, 0, "and its comment, with the reply under it")
        try refused(401, try await call(.GET, "/profile", ben.token))
    }
}
