import Contracts
import XCTest

/// Shapes read off the wire types' `Decodable`, as the API documents will use them.
final class WireSchemaTests: XCTestCase {
    func properties(_ schema: WireSchema) -> [String: (WireSchema, Bool)] {
        guard case .object(_, let properties) = schema else { return [:] }
        return Dictionary(uniqueKeysWithValues: properties.map { ($0.key, ($0.schema, $0.required)) })
    }

    func testAStoryWithNestedObjectsListsAndOptionalKeys() throws {
        let story = try WireSchema.of(QuotehubStory.self)
        guard case .object(let name, let list) = story else { return XCTFail("\(story)") }
        XCTAssertEqual(name, "QuotehubStory")
        XCTAssertEqual(
            list.map(\.key),
            ["_id", "userId", "bookId", "quotes", "content", "storyImageURLs", "isPublic", "keywords", "folderIds", "createdAt", "updatedAt"])
        let keys = properties(story)
        XCTAssertEqual(keys["_id"]?.0, .string)
        XCTAssertEqual(keys["isPublic"]?.0, .boolean)
        XCTAssertEqual(keys["content"]?.1, false, "optional: decodeIfPresent")
        XCTAssertEqual(keys["keywords"]?.0, .array(.string))
        guard case .array(let quote)? = keys["quotes"]?.0 else { return XCTFail("quotes") }
        XCTAssertEqual(properties(quote)["page"]?.0, .integer)
        XCTAssertEqual(properties(quote)["page"]?.1, false)
        XCTAssertEqual(properties(keys["bookId"]!.0)["ISBN"]?.0, .array(.string))
    }

    func testATypeThatContainsItselfRefersToItself() throws {
        let comment = try WireSchema.of(QuotehubComment.self)
        XCTAssertEqual(properties(comment)["replies"]?.0, .array(.reference("QuotehubComment")))
        let page = try WireSchema.of([QuotehubComment].self)
        XCTAssertEqual(properties(page.element!)["replies"]?.0, .array(.reference("QuotehubComment")), "inside a list too")
        XCTAssertEqual(
            properties(properties(try WireSchema.of(QuotehubUser.self))["blockedUsers"]!.0.element!)["_id"]?.0, nil,
            "a user's blocked users are users again")
    }

    func testEnumsMapsAndGenerics() throws {
        XCTAssertEqual(properties(try WireSchema.of(CanonicalError.self))["code"]?.0, .enumeration(ErrorCode.allCases.map(\.rawValue)))
        XCTAssertEqual(try WireSchema.of([String: Int].self), .dictionary(.integer))
        let envelope = try WireSchema.of(PageEnvelope<QuotehubTheme>.self)
        guard case .object(let name, _) = envelope else { return XCTFail("\(envelope)") }
        XCTAssertEqual(name, "PageEnvelope_QuotehubTheme")
        XCTAssertEqual(properties(properties(envelope)["pagination"]!.0).keys.sorted(), ["currentPage", "pageSize", "totalItems", "totalPages"])
    }
}

extension WireSchema {
    var element: WireSchema? {
        if case .array(let element) = self { return element }
        return nil
    }
}

/// The same schemas checking answers: what the contract tests and the documents share.
final class WireSchemaValidationTests: XCTestCase {
    func violations<T: Decodable>(_ type: T.Type, _ json: String) throws -> [String] {
        try WireSchema.of(type).violations(of: try JSONSerialization.jsonObject(with: Data(json.utf8)))
    }

    func testAConformingAnswerHasNone() throws {
        let user = #"{"_id":"a","nickname":"n","profileImage":"","blockedUsers":[{"_id":"b","nickname":"m","profileImage":""}]}"#
        XCTAssertEqual(try violations(QuotehubUser.self, user), [])
        XCTAssertEqual(try violations(Envelope<QuotehubUser>.self, #"{"success":true,"message":"","data":\#(user)}"#), [])
        XCTAssertEqual(try violations(Envelope<NoPayload>.self, #"{"success":false,"message":"x","data":null}"#), [])
    }

    func testDeparturesAreNamed() throws {
        XCTAssertEqual(
            try violations(QuotehubUser.self, #"{"_id":"a","nickname":3,"extra":1}"#),
            ["$.extra: not in the schema", "$.nickname: not a string", "$.profileImage: missing"])
        XCTAssertEqual(
            try violations(Pagination.self, #"{"currentPage":1.5,"totalPages":true,"pageSize":1,"totalItems":1}"#),
            ["$.currentPage: not an integer", "$.totalPages: not an integer"])
        XCTAssertEqual(try violations(CanonicalError.self, #"{"code":"nope","message":"m"}"#).first?.hasPrefix("$.code: not one of"), true)
        XCTAssertEqual(
            try violations(
                QuotehubComment.self,
                #"{"_id":"a","userId":{"_id":"u","nickname":"n","profileImage":""},"bookStoryId":"s","content":"c","createdAt":"t","updatedAt":"t","replies":[{"_id":1}]}"#
            ).first,
            "$.replies[0]._id: not a string")
    }
}
