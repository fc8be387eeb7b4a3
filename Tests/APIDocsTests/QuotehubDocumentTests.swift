import APIDocs
import Contracts
import Foundation
import OpenAPIKit
import XCTest

/// The `quotehub` document: built from the catalogue and the Contracts types, covering the
/// route table, encodable as OpenAPI 3.1 JSON.
final class QuotehubDocumentTests: XCTestCase {
    func testEveryRouteOfTheTableIsInTheDocument() throws {
        let document = try APIDocument.build(.quotehub)
        var missing: [String] = []
        for route in RouteTable.quotehubRoutes {
            let (path, _) = APIDocument.path(route.pattern)
            guard let item = document.paths[path]?.pathItemValue, item.for(OpenAPI.HttpMethod(rawValue: route.method)!) != nil else {
                missing.append("\(route.method) \(route.pattern)")
                continue
            }
        }
        XCTAssertEqual(missing, [], "routes the document leaves out")
        let documented = APIDocument.operations(for: .quotehub).map { "\($0.method) \($0.pattern)" }
        XCTAssertEqual(Set(documented).count, documented.count, "each operation once")
        XCTAssertEqual(Set(documented), Set(RouteTable.quotehubRoutes.map { "\($0.method) \($0.pattern)" }), "and nothing the gateway does not route")
    }

    func testShapesComeFromTheTypes() throws {
        let document = try APIDocument.build(.quotehub)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(document)) as? [String: Any]
        XCTAssertEqual(json?["openapi"] as? String, "3.1.1")
        let schemas = try XCTUnwrap((json?["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let story = try XCTUnwrap(schemas["QuotehubStory"] as? [String: Any])
        let properties = try XCTUnwrap(story["properties"] as? [String: Any])
        XCTAssertEqual(Set(properties.keys), ["_id", "userId", "bookId", "quotes", "content", "storyImageURLs", "isPublic", "keywords", "folderIds", "createdAt", "updatedAt"])
        XCTAssertEqual(Set(story["required"] as? [String] ?? []), Set(properties.keys).subtracting(["content"]))
        let page = try XCTUnwrap(schemas["PageEnvelope_QuotehubStory"] as? [String: Any])
        XCTAssertNotNil((page["properties"] as? [String: Any])?["pagination"])
    }
}
