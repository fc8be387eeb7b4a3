import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// API.md §9's nickname routes, in the envelope, and the gateway's mount lookup.
final class QuotehubNicknameTests: XCTestCase {
    func testGeneratedNicknamesAreKoreanFreeAndCheckable() async throws {
        let harness = try await AuthHarness.make()
        let quotehub = try await harness.apps.create(name: "QuoteHub", profile: .quotehub, flags: AppFlags(), mount: "quotehub")
        @Sendable func headers(_ appID: String) -> HTTPFields { TestEnvironment.fields(app: appID, extra: [(InternalHeader.appProfile, "quotehub")]) }
        try await harness.app.contractTest { client in
            var seen: Set<String> = []
            for _ in 0..<20 {
                let answer = try await client.execute(uri: "/auth/generate-nickname", method: .get, headers: headers(quotehub.id))
                XCTAssertEqual(answer.status, .ok)
                let body = try JSON.object(answer.body)
                JSON.assertKeys(body, ["success", "message", "data"])
                XCTAssertEqual(body["success"] as? Bool, true)
                let nickname = try XCTUnwrap((body["data"] as? [String: Any])?["nickname"] as? String)
                XCTAssertTrue((2...12).contains(nickname.count), nickname)
                XCTAssertTrue(nickname.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "readable Korean: \(nickname)")
                seen.insert(nickname)
            }
            XCTAssertGreaterThan(seen.count, 5, "not one fixed answer")

            // Taken or not, per app (here the lslp test app asks as a quotehub app would).
            _ = try await client.join(harness, email: "reader@glint.app", nick: "조용한고래")
            func available(_ nickname: String, app: String) async throws -> Bool? {
                let query = nickname.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let answer = try await client.execute(uri: "/auth/check-nickname?nickname=\(query)", method: .get, headers: headers(app))
                XCTAssertEqual(answer.status, .ok, answer.body.text)
                return (try JSON.object(answer.body)["data"] as? [String: Any])?["available"] as? Bool
            }
            let taken = try await available("조용한고래", app: harness.appID)
            XCTAssertEqual(taken, false)
            let elsewhere = try await available("조용한고래", app: quotehub.id)
            XCTAssertEqual(elsewhere, true, "nicknames are unique per app")
            for bad in ["", "가", String(repeating: "가", count: 13)] {
                let answer = try await client.execute(
                    uri: "/auth/check-nickname?nickname=\(bad.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
                    method: .get, headers: headers(quotehub.id))
                XCTAssertEqual(answer.status, .badRequest, bad)
            }
            let lslp = try await client.execute(uri: "/auth/generate-nickname", method: .get, headers: harness.headers())
            XCTAssertEqual(lslp.status.code, 444, "other apps have no such route")

            let lookup = try await client.execute(
                uri: "/internal/apps/by-mount", method: .post,
                headers: TestEnvironment.fields(app: nil, extra: [("Content-Type", "application/json")]),
                body: JSONCoding.encode(AppMountLookup(mount: "quotehub")))
            XCTAssertEqual(try JSONDecoder().decode(AppInfo.self, from: lookup.body), quotehub.info)
            let none = try await client.execute(
                uri: "/internal/apps/by-mount", method: .post,
                headers: TestEnvironment.fields(app: nil, extra: [("Content-Type", "application/json")]),
                body: JSONCoding.encode(AppMountLookup(mount: "nothing")))
            XCTAssertEqual(none.status, .notFound)
        }
    }
}
