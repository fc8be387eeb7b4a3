import Contracts
import Foundation
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// API.md §9's reader profiles, key by key: nickname change (unique per app), own profile with
/// the readers blocked, another's profile as a guest, user search without oneself or the blocked.
final class QuotehubProfileTests: XCTestCase {
    func testNicknamesProfilesAndSearch() async throws {
        let fixture = try await QuotehubFixture.make()
        try await fixture.harness.app.contractTest { client in
            let alice = try await fixture.signIn(client, subject: "alice.sub"), bob = try await fixture.signIn(client, subject: "bob.sub")
            let carol = try await fixture.signIn(client, subject: "carol.sub")
            func change(_ nickname: String, _ token: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/auth/change-nickname", method: .put, headers: fixture.headers(token: token),
                    body: JSONCoding.encode(GeneratedNickname(nickname: nickname)))
            }
            let changed = try await change("책읽는앨리스", alice.token)
            XCTAssertEqual(changed.status, .ok, changed.body.text)
            let user = try XCTUnwrap(try JSON.object(changed.body)["data"] as? [String: Any])
            JSON.assertKeys(user, ["_id", "nickname", "profileImage"])
            XCTAssertEqual(user["nickname"] as? String, "책읽는앨리스")
            let taken = try await change("책읽는앨리스", bob.token)
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: taken.body).code.quotehubStatus, 400, "unique per app")
            let same = try await change("책읽는앨리스", alice.token)
            XCTAssertEqual(same.status, .ok, "keeping one's own is fine")
            for bad in ["가", String(repeating: "가", count: 13)] {
                let refused = try await change(bad, bob.token)
                XCTAssertEqual(refused.status, .badRequest, bad)
            }
            _ = try await change("밥", bob.token)
            _ = try await change("앨리스팬캐롤", carol.token)

            // Alice blocks carol (the block graph every app shares).
            let blocked = try await client.execute(
                uri: "/v1/users/\(carol.userID)/block", method: .post, headers: fixture.headers(token: alice.token))
            XCTAssertEqual(blocked.status, .ok, blocked.body.text)
            let profile = try await client.execute(uri: "/profile", method: .get, headers: fixture.headers(token: alice.token))
            let mine = try XCTUnwrap(try JSON.object(profile.body)["data"] as? [String: Any])
            JSON.assertKeys(mine, ["_id", "nickname", "profileImage", "blockedUsers"])
            let blockedUsers = try XCTUnwrap(mine["blockedUsers"] as? [[String: Any]])
            XCTAssertEqual(blockedUsers.map { $0["_id"] as? String }, [carol.userID])
            JSON.assertKeys(blockedUsers[0], ["_id", "nickname", "profileImage"])

            let guest = try await client.execute(uri: "/profile/\(alice.userID)", method: .get, headers: fixture.headers())
            let theirs = try XCTUnwrap(try JSON.object(guest.body)["data"] as? [String: Any])
            JSON.assertKeys(theirs, ["_id", "nickname", "profileImage"])
            let missing = try await client.execute(uri: "/profile/6740369b3a36e82f532ec7ff", method: .get, headers: fixture.headers())
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: missing.body).code.quotehubStatus, 404)
            let noToken = try await client.execute(uri: "/profile", method: .get, headers: fixture.headers())
            XCTAssertEqual(try JSONDecoder().decode(CanonicalError.self, from: noToken.body).code.quotehubStatus, 401)

            let query = "앨리스".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let found = try await client.execute(uri: "/user/search/\(query)", method: .get, headers: fixture.headers(token: alice.token))
            XCTAssertEqual((try JSON.object(found.body)["data"] as? [[String: Any]])?.count, 0, "neither herself nor carol, whom she blocked")
            let bobFinds = try await client.execute(uri: "/user/search/\(query)", method: .get, headers: fixture.headers(token: bob.token))
            let bobsResults = try XCTUnwrap(try JSON.object(bobFinds.body)["data"] as? [[String: Any]])
            XCTAssertEqual(Set(bobsResults.compactMap { $0["_id"] as? String }), [alice.userID, carol.userID])
        }
        await fixture.apple.stop()
    }

    /// `PUT /profile` as JSON and as multipart with an image, served under the mount by an
    /// absolute URL.
    func testEditingTheProfile() async throws {
        let fixture = try await QuotehubFixture.make()
        try await fixture.harness.app.contractTest { client in
            let reader = try await fixture.signIn(client, subject: "editor.sub")
            var headers = fixture.headers(token: reader.token)
            headers[.init(InternalHeader.publicBase)!] = "https://books.example/quotehub"
            let edited = try await client.execute(
                uri: "/profile", method: .put, headers: headers,
                body: JSONCoding.encode(ProfileEdit(nickname: "문장수집가", statusMessage: "오늘도 한 줄")))
            let user = try XCTUnwrap(try JSON.object(edited.body)["data"] as? [String: Any], edited.body.text)
            JSON.assertKeys(user, ["_id", "nickname", "profileImage", "statusMessage"])
            XCTAssertEqual(user["statusMessage"] as? String, "오늘도 한 줄")
            XCTAssertEqual(user["nickname"] as? String, "문장수집가")

            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 3, count: 64)
            let form = MultipartBody(parts: [
                .field("statusMessage", ""), .file("profileImage", filename: "me.png", contentType: "image/png", bytes: png),
            ])
            headers[.contentType] = form.contentType
            let withImage = try await client.execute(uri: "/profile", method: .put, headers: headers, body: form.buffer)
            let imaged = try XCTUnwrap(try JSON.object(withImage.body)["data"] as? [String: Any], withImage.body.text)
            let url = try JSON.string(imaged, "profileImage")
            XCTAssertTrue(url.hasPrefix("https://books.example/quotehub/files/profiles/"), url)
            XCTAssertNil(imaged["statusMessage"], "an empty status message clears it")
            let path = String(url.dropFirst("https://books.example/quotehub".count))
            // As the gateway passes it on: the mount's app, no key or token.
            let served = try await client.execute(uri: path, method: .get, headers: fixture.headers())
            XCTAssertEqual(Array(served.body.readableBytesView), png, "served under the mount with no key or token")
            let tooLong = try await client.execute(
                uri: "/profile", method: .put, headers: fixture.headers(token: reader.token),
                body: JSONCoding.encode(ProfileEdit(statusMessage: String(repeating: "가", count: 101))))
            XCTAssertEqual(tooLong.status, .badRequest)
        }
        await fixture.apple.stop()
    }
}
