import Contracts
import Foundation
import HummingbirdTesting
import TestSupport
import XCTest

@testable import Gateway

/// The API documents and their page, served by the gateway with no key.
final class DocumentRoutesTests: XCTestCase {
    func testDocumentsAndThePage() async throws {
        try await GatewayTests.makeApp(GatewayTests.FakeServices()).test(.router) { client in
            let document = try await client.execute(uri: "/openapi/quotehub.json", method: .get)
            XCTAssertEqual(document.status, .ok)
            let json = try JSON.object(document.body)
            XCTAssertEqual(json["openapi"] as? String, "3.1.1")
            XCTAssertNotNil((json["paths"] as? [String: Any])?["/bookstories/public"])
            let unknown = try await client.execute(uri: "/openapi/nothing.json", method: .get)
            XCTAssertEqual(unknown.status, .notFound)
            let page = try await client.execute(uri: "/docs", method: .get)
            XCTAssertEqual(page.status, .ok)
            XCTAssertEqual(page.headers[.contentType], "text/html; charset=utf-8")
            XCTAssertTrue(page.body.text.contains("<code>/bookstories/public</code>"))
            XCTAssertTrue(page.body.text.contains("href=\"#quotehub-Envelope_QuotehubStory\""), "answers link to their schemas")
            XCTAssertTrue(page.body.text.contains("id=\"quotehub-Envelope_QuotehubStory\""))
            let publicList = try XCTUnwrap((json["paths"] as? [String: Any])?["/bookstories/public"] as? [String: Any])
            let security = try XCTUnwrap((publicList["get"] as? [String: Any])?["security"] as? [[String: Any]])
            XCTAssertEqual(security.count, 2, "a guest route: anonymous or Bearer")
            XCTAssertFalse(page.body.text.contains("http://") || page.body.text.contains("https://"), "no assets from elsewhere")
            XCTAssertTrue(page.body.text.contains("<td>none or bearer</td>"), "a guest route")
            for profile in ["lslp", "slp"] {
                let keyApps = try await client.execute(uri: "/openapi/\(profile).json", method: .get)
                XCTAssertEqual(keyApps.status, .ok)
                XCTAssertNotNil((try JSON.object(keyApps.body)["paths"] as? [String: Any])?["/v1/users/join"])
                XCTAssertTrue(page.body.text.contains("href=\"/openapi/\(profile).json\""))
            }
            XCTAssertTrue(page.body.text.contains("<td>accessToken + appKey</td>"), "a signed-in key app's route")
        }
    }
}
