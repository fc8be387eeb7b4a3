import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Owners manage operators: add (credentials shown once, and they sign in with them), change a
/// role, reset a TOTP secret (sessions end), remove; never the last owner, never for others.
final class OperatorRoutesTests: XCTestCase {
    func testOwnersManageOperators() async throws {
        let harness = try await AdminHarness.make()
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        let admin = try await harness.addOperator("admin@example.com", role: .admin)
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, owner)
            let added = try await client.execute(
                uri: "/admin/api/operators", method: .post, headers: session.headers(),
                body: JSONCoding.encode(OperatorChange(email: "New@Example.com", role: .moderator, apps: ["QuoteHub"])))
            XCTAssertEqual(added.status, .ok, String(buffer: added.body))
            JSON.assertKeys(try JSON.object(added.body), ["operator", "password", "totpUri"])
            let credentials = try JSONCoding.decoder.decode(OperatorCredentials.self, from: added.body)
            XCTAssertEqual(credentials.operator.email, "new@example.com")
            let secret = try XCTUnwrap(URLComponents(string: credentials.totpUri)?.queryItems?.first { $0.name == "secret" }?.value)
            let newcomer = AdminHarness.Operator(
                email: "new@example.com", password: try XCTUnwrap(credentials.password), totp: try XCTUnwrap(TOTP(base32: secret)),
                id: credentials.operator.id)
            let theirs = try await AdminHarness.session(client, newcomer.withStep(-1))
            let theirApps = try await client.execute(uri: "/admin/api/apps", method: .get, headers: theirs.headers())
            XCTAssertEqual(try JSONCoding.decoder.decode([AdminAppAnswer].self, from: theirApps.body).map(\.name), ["QuoteHub"])

            let changed = try await client.execute(
                uri: "/admin/api/operators/\(newcomer.id)/role", method: .post, headers: session.headers(),
                body: JSONCoding.encode(OperatorChange(role: .admin, apps: ["GLINT"])))
            XCTAssertEqual(
                try JSONCoding.decoder.decode(OperatorAnswer.self, from: changed.body),
                OperatorAnswer(id: newcomer.id, email: "new@example.com", role: .admin, apps: ["GLINT"], passwordChangeRequired: true))
            let reset = try await client.execute(uri: "/admin/api/operators/\(newcomer.id)/reset-totp", method: .post, headers: session.headers())
            XCTAssertNil(try JSONCoding.decoder.decode(OperatorCredentials.self, from: reset.body).password)
            let ended = try await client.execute(uri: "/admin/api/session", method: .get, headers: theirs.headers())
            XCTAssertEqual(ended.status, .unauthorized, "a reset ends the operator's sessions")
            let oldCode = try await AdminHarness.signIn(client, newcomer)
            XCTAssertEqual(oldCode.status, .unauthorized, "the old secret's codes no longer open")

            let adminSession = try await AdminHarness.session(client, admin)
            let notOwner = try await client.execute(uri: "/admin/api/operators", method: .get, headers: adminSession.headers())
            XCTAssertEqual(notOwner.status, .forbidden)
            let demoteLast = try await client.execute(
                uri: "/admin/api/operators/\(owner.id)/role", method: .post, headers: session.headers(),
                body: JSONCoding.encode(OperatorChange(role: .admin)))
            XCTAssertEqual(demoteLast.status, .conflict, "the last owner stays one")
            let removeSelf = try await client.execute(uri: "/admin/api/operators/\(owner.id)", method: .delete, headers: session.headers())
            XCTAssertEqual(removeSelf.status, .conflict)
            let removed = try await client.execute(uri: "/admin/api/operators/\(newcomer.id)", method: .delete, headers: session.headers())
            XCTAssertEqual(removed.status, .ok)
            let list = try await client.execute(uri: "/admin/api/operators", method: .get, headers: session.headers())
            XCTAssertEqual(
                try JSONCoding.decoder.decode([OperatorAnswer].self, from: list.body).map(\.email),
                ["admin@example.com", "owner@example.com"])
            let log = try await harness.stores.audit.entries(AuditQuery())
            XCTAssertEqual(
                log.filter { $0.action.hasPrefix("operator.") }.map(\.action),
                ["operator.remove", "operator.reset_totp", "operator.change", "operator.add"])
        }
    }
}
