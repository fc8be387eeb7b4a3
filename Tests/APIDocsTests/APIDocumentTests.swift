import APIDocs
import Contracts
import Foundation
import OpenAPIKit
import XCTest

/// The documents: built from the catalogues and the Contracts types, covering the route table
/// (the standard one split between `lslp` and `slp`, the mounted one for `quotehub`), encodable
/// as OpenAPI 3.1 JSON.
final class APIDocumentTests: XCTestCase {
    func testEveryRouteOfTheTablesIsInItsProfilesDocument() throws {
        var standard: Set<String> = []
        for profile in Dialect.allCases {
            let document = try APIDocument.build(profile)
            let operations = APIDocument.operations(for: profile)
            let documented = operations.map { "\($0.method) \($0.pattern)" }
            XCTAssertEqual(Set(documented).count, documented.count, "\(profile): each operation once")
            for operation in operations {
                let (path, _) = APIDocument.path(operation.documentedPath)
                let item = document.paths[path]?.pathItemValue
                XCTAssertNotNil(
                    item?.for(OpenAPI.HttpMethod(rawValue: operation.method)!), "\(profile): \(operation.method) \(path.rawValue) in the document")
            }
            let table = profile == .quotehub ? RouteTable.quotehubRoutes : RouteTable.publicRoutes
            let routed = Set(table.map { "\($0.method) \($0.pattern)" })
            XCTAssertEqual(Set(documented).subtracting(routed), [], "\(profile): nothing the gateway does not route")
            if profile == .quotehub {
                XCTAssertEqual(Set(documented), routed, "every quotehub route")
            } else {
                standard.formUnion(documented)
            }
        }
        // The admin API's routes are one wildcard in the table; its own document lists them one by one.
        let admin = Set(AdminCatalogue.operations.map(\.method))
        XCTAssertTrue(AdminCatalogue.operations.allSatisfy { $0.pattern.hasPrefix("/admin/api/") })
        // The console's pages (`/admin/**`) are HTML for browsers, in no API document.
        let routes = Set(RouteTable.publicRoutes.filter { !$0.pattern.hasPrefix("/admin/") }.map { "\($0.method) \($0.pattern)" })
        XCTAssertEqual(routes.subtracting(standard).sorted(), [], "every standard route in the lslp or the slp document")
        XCTAssertTrue(
            admin.isSubset(of: Set(RouteTable.publicRoutes.filter { $0.pattern == "/admin/api/**" }.map(\.method))),
            "the gateway routes every method the admin document uses")
        let document = try APIDocument.buildAdmin()
        for operation in AdminCatalogue.operations {
            let (path, _) = APIDocument.path(operation.documentedPath)
            XCTAssertNotNil(
                document.paths[path]?.pathItemValue?.for(OpenAPI.HttpMethod(rawValue: operation.method)!), "\(operation.method) \(path.rawValue)")
        }
    }

    func testShapesComeFromTheTypes() throws {
        let story = try Self.schema("QuotehubStory", in: .quotehub)
        let properties = try XCTUnwrap(story["properties"] as? [String: Any])
        XCTAssertEqual(
            Set(properties.keys),
            ["_id", "userId", "bookId", "quotes", "content", "storyImageURLs", "isPublic", "keywords", "folderIds", "createdAt", "updatedAt"])
        XCTAssertEqual(Set(story["required"] as? [String] ?? []), Set(properties.keys).subtracting(["content"]))
        XCTAssertNotNil((try Self.schema("PageEnvelope_QuotehubStory", in: .quotehub)["properties"] as? [String: Any])?["pagination"])

        let join = try Self.schema("JoinAnswer", in: .lslp)
        XCTAssertEqual(
            Set((join["properties"] as? [String: Any])?.keys ?? [:].keys),
            ["user_id", "userID", "email", "nick", "profileImage", "accessToken", "refreshToken"], "Auth plus userID (API.md §1)")
        let detail = try Self.schema("FilterDetail", in: .lslp)
        XCTAssertTrue(
            Set((detail["properties"] as? [String: Any])?.keys ?? [:].keys).isSuperset(of: [
                "filter_id", "price", "filterValues", "is_downloaded", "comments",
            ]))
        let authOut = try Self.schema("Merged_SlpAccount_SlpSession", in: .slp)
        XCTAssertEqual(
            Set((authOut["properties"] as? [String: Any])?.keys ?? [:].keys),
            ["user_id", "email", "nickname", "profileImage", "phone", "provider", "createdAt", "token"], "AuthOut (API.md §8)")
        XCTAssertEqual(Set((try Self.schema("SlpErrorAnswer", in: .slp)["properties"] as? [String: Any])?.keys ?? [:].keys), ["errorCode"])
    }

    /// SeSACKey and the raw token for the key apps, on the route table's key rule; Bearer under a mount.
    func testWhoMayCall() throws {
        let lslp = try Self.json(.lslp)
        let schemes = try XCTUnwrap((lslp["components"] as? [String: Any])?["securitySchemes"] as? [String: [String: String]])
        XCTAssertEqual(schemes["appKey"]?["name"], "SeSACKey")
        XCTAssertEqual(schemes["accessToken"]?["name"], "Authorization")
        XCTAssertEqual(try Self.security(lslp, "/v1/posts", "get"), [["accessToken", "appKey"]])
        XCTAssertEqual(try Self.security(lslp, "/v1/users/login", "post"), [["appKey"]])
        XCTAssertEqual(try Self.security(lslp, "/v1/payments/webhook", "post"), nil, "the PG's webhook has no key")
        XCTAssertEqual(
            try Self.security(lslp, "/socket.io/", "get"), [[], ["appKey"], ["accessToken"], ["accessToken", "appKey"]],
            "sockets: key and token optional")
        XCTAssertEqual(try Self.security(try Self.json(.quotehub), "/bookstories/public", "get"), [[], ["bearer"]])
    }

    /// Fuzzing findings, kept: a slp app's call without a key is refused `420 {"message"}` (no app
    /// to speak for); §8's User sends `profileImage: null`; a quotehub error on a paginated route
    /// sends `data: []` where the envelope's `data` is any value (not "null only").
    func testWhatTheFuzzerFound() throws {
        let slp = try Self.json(.slp)
        let workspaces = try XCTUnwrap(((slp["paths"] as? [String: Any])?["/v1/workspaces"] as? [String: Any])?["get"] as? [String: Any])
        let refusal = try XCTUnwrap((workspaces["responses"] as? [String: Any])?["420"] as? [String: Any])
        let schema = (((refusal["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: String])?["$ref"]
        XCTAssertEqual(schema, "#/components/schemas/MessageAnswer")
        let user = try Self.schema("SlpUser", in: .slp)
        XCTAssertEqual(((user["properties"] as? [String: Any])?["profileImage"] as? [String: Any])?["type"] as? [String], ["string", "null"])
        XCTAssertFalse((user["required"] as? [String] ?? []).contains("profileImage"))
        XCTAssertEqual(try WireSchema.of(SlpUser.self).violations(of: ["user_id": "a", "email": "b", "nickname": "c", "profileImage": NSNull()]), [])
        let envelope = try Self.schema("Envelope_NoPayload", in: .quotehub)
        XCTAssertNil(((envelope["properties"] as? [String: Any])?["data"] as? [String: Any])?["type"], "data: any value")
    }

    /// Links from a created thing's ids to the operations that take them (the fuzzer's stateful phase follows them).
    func testLinksFollowCreatedIDs() throws {
        let post = try Self.links(try Self.json(.lslp), "/v1/posts", "post", status: "200")
        XCTAssertEqual(post["get_v1_posts_{post_id}"], ["post_id": "$response.body#/post_id"])
        XCTAssertEqual(post["delete_v1_posts_{post_id}_comments_{comment_id}"], nil, "no comment id in a post's answer")
        let channel = try Self.links(try Self.json(.slp), "/v1/workspaces/{wid}/channels", "post", status: "200")
        XCTAssertEqual(channel["get_v1_workspaces_{wid}_channels_{cid}_chats"], ["wid": "$request.path.wid", "cid": "$response.body#/channel_id"])
        let story = try Self.links(try Self.json(.quotehub), "/bookstories/createBookStory", "post", status: "201")
        XCTAssertEqual(story["get_bookstories_{id}"], ["id": "$response.body#/data/_id"])
        XCTAssertNil(story["get_folder_{id}"], "a story's id is not a theme's")
    }

    private static func links(_ document: [String: Any], _ path: String, _ method: String, status: String) throws -> [String: [String: String]] {
        let operation = try XCTUnwrap(((document["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any])
        let links = try XCTUnwrap(((operation["responses"] as? [String: Any])?[status] as? [String: Any])?["links"] as? [String: [String: Any]])
        return links.mapValues { $0["parameters"] as? [String: String] ?? [:] }
    }

    private static func json(_ profile: Dialect) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(try APIDocument.build(profile))) as? [String: Any])
    }

    private static func schema(_ name: String, in profile: Dialect) throws -> [String: Any] {
        let document = try json(profile)
        XCTAssertTrue(["3.1.1"].contains(document["openapi"] as? String))
        return try XCTUnwrap(
            ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] as? [String: Any], "\(name) in \(profile)")
    }

    private static func security(_ document: [String: Any], _ path: String, _ method: String) throws -> [[String]]? {
        let operation = try XCTUnwrap(
            ((document["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any], "\(method) \(path)")
        return (operation["security"] as? [[String: Any]])?.map { $0.keys.sorted() }
    }
}
