import Contracts
import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import JWTKit
import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// auth-svc with a quotehub app whose Sign in with Apple goes to the Apple simulator.
struct QuotehubFixture {
    static let clientID = "com.quotehub.app"

    let harness: AuthHarness
    let apple: AppleSimulator
    let appID: String

    static func make() async throws -> QuotehubFixture {
        let apple = try await AppleSimulator.start()
        let harness = try await AuthHarness.make(apple: apple)
        let teamKey = ES256PrivateKey()
        let app = try await harness.apps.create(
            name: "QuoteHub", profile: .quotehub, flags: AppFlags(), appleClientIDs: [clientID], mount: "quotehub",
            appleKey: AppleSignInKey(teamID: "TEAM123456", keyID: "KEY1234567", privateKeyPEM: teamKey.pemRepresentation)
        )
        await apple.registerClient(clientID, teamID: "TEAM123456", keyID: "KEY1234567", publicKey: teamKey.publicKey)
        return QuotehubFixture(harness: harness, apple: apple, appID: app.id)
    }

    /// What the gateway sends for this app, with a JSON body and the reader's token when given.
    func headers(token: String? = nil) -> HTTPFields {
        TestEnvironment.fields(
            app: appID,
            extra: [(InternalHeader.appProfile, "quotehub"), ("Content-Type", "application/json")]
                + (token.map { [("Authorization", "Bearer " + $0)] } ?? []))
    }

    func userCount() async throws -> Int {
        // The app id is an ObjectID (hex): safe to write into the statement.
        Int(try await harness.values(Int64.self, "SELECT COUNT(*) FROM {user} WHERE app_id = '\(appID)'").first ?? 0)
    }

    /// A reader signed in by code: their id and access token.
    func signIn(_ client: some TestClientProtocol, subject: String) async throws -> (userID: String, token: String) {
        let answer = try await client.execute(
            uri: "/auth/apple/callback", method: .post, headers: headers(),
            body: JSONCoding.encode(AppleCodeRequest(code: apple.issueCode(subject: subject, clientID: Self.clientID))))
        let data = try XCTUnwrap(try JSON.object(answer.body)["data"] as? [String: Any], answer.body.text)
        return (try JSON.string(try XCTUnwrap(data["user"] as? [String: Any]), "_id"), try JSON.string(data, "accessToken"))
    }
}
