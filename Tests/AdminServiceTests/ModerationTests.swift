import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// Roles and apps: an operator sees and acts in its apps only; bans are asked of auth-svc and
/// every action lands in the audit log, which owners read whole, admins for their apps, and
/// moderators not at all.
final class ModerationTests: XCTestCase {
    static let user = "6740369b3a36e82f532ec721"

    func testAModeratorSeesOnlyItsAppsAndAnotherAppIs404() async throws {
        let harness = try await AdminHarness.make()
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, moderator)
            let apps = try await client.execute(uri: "/admin/api/apps", method: .get, headers: session.headers())
            XCTAssertEqual(apps.status, .ok)
            let first = try XCTUnwrap(try JSON.array(apps.body).first)
            JSON.assertKeys(first, ["id", "name", "profile", "mount"])
            XCTAssertEqual(try JSONCoding.decoder.decode([AdminAppAnswer].self, from: apps.body).map(\.name), ["QuoteHub"])

            let elsewhere = try await client.execute(
                uri: "/admin/api/apps/\(AdminHarness.glint.appID)/users/\(Self.user)/ban", method: .post, headers: session.headers(),
                body: JSONCoding.encode(AdminBanRequest(reason: "spam")))
            XCTAssertEqual(elsewhere.status, .notFound, "another app's users do not exist for this moderator")
            let unknown = try await client.execute(
                uri: "/admin/api/apps/no-such-app/users/\(Self.user)/ban", method: .post, headers: session.headers(),
                body: JSONCoding.encode(AdminBanRequest(reason: "spam")))
            XCTAssertEqual(unknown.status, .notFound)
            XCTAssertTrue(harness.bans.asked.withLock { $0.isEmpty })

            let ownerSession = try await AdminHarness.session(client, owner)
            let all = try await client.execute(uri: "/admin/api/apps", method: .get, headers: ownerSession.headers())
            XCTAssertEqual(try JSONCoding.decoder.decode([AdminAppAnswer].self, from: all.body).map(\.name), ["GLINT", "QuoteHub"])
        }
    }

    func testABanIsAskedOfAuthAndAudited() async throws {
        let harness = try await AdminHarness.make()
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: [AdminHarness.quotehub.appID])
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["GLINT"])
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            let session = try await AdminHarness.session(client, moderator)
            let banned = try await client.execute(
                uri: "/admin/api/apps/\(AdminHarness.quotehub.appID)/users/\(Self.user)/ban", method: .post,
                headers: session.headers([("Content-Type", "application/json"), ("x-request-id", "req-ban-1")]),
                body: JSONCoding.encode(AdminBanRequest(reason: "harassment", until: "2099-01-01T00:00:00.000Z")))
            XCTAssertEqual(banned.status, .ok, String(buffer: banned.body))
            JSON.assertKeys(try JSON.object(banned.body), ["userId", "reason", "until", "operatorId", "createdAt"])
            let asked = try XCTUnwrap(harness.bans.asked.withLock { $0.first })
            XCTAssertEqual(asked.userID, Self.user)
            XCTAssertEqual(asked.appID, AdminHarness.quotehub.appID)
            XCTAssertEqual(asked.request?.operatorID, moderator.id)
            XCTAssertEqual(asked.request?.reason, "harassment")
            XCTAssertEqual(asked.request?.until, Date(timeIntervalSince1970: 4_070_908_800))
            let badDate = try await client.execute(
                uri: "/admin/api/apps/\(AdminHarness.quotehub.appID)/users/\(Self.user)/ban", method: .post, headers: session.headers(),
                body: JSONCoding.encode(AdminBanRequest(reason: "x", until: "tomorrow")))
            XCTAssertEqual(badDate.status, .badRequest)
            let isoDate = try await client.execute(
                uri: "/admin/api/apps/\(AdminHarness.quotehub.appID)/users/\(Self.user)/ban", method: .post, headers: session.headers(),
                body: JSONCoding.encode(AdminBanRequest(reason: "x", until: "2099-01-01T09:00:00+09:00")))
            XCTAssertEqual(isoDate.status, .ok, "any ISO 8601 date-time")
            XCTAssertEqual(harness.bans.asked.withLock { $0.last?.request?.until }, Date(timeIntervalSince1970: 4_070_908_800))
            let unbanned = try await client.execute(
                uri: "/admin/api/apps/\(AdminHarness.quotehub.appID)/users/\(Self.user)/unban", method: .post, headers: session.headers())
            XCTAssertEqual(unbanned.status, .ok)

            let moderatorReads = try await client.execute(uri: "/admin/api/audit", method: .get, headers: session.headers())
            XCTAssertEqual(moderatorReads.status, .forbidden, "moderators do not read the audit log")

            let ownerSession = try await AdminHarness.session(client, owner)
            let log = try await client.execute(uri: "/admin/api/audit", method: .get, headers: ownerSession.headers())
            XCTAssertEqual(log.status, .ok)
            let entries = try JSONCoding.decoder.decode([AuditEntryAnswer].self, from: log.body)
            let ban = try XCTUnwrap(entries.last { $0.action == "user.ban" }, "the first ban (the list is newest first)")
            XCTAssertEqual(ban.operatorId, moderator.id)
            XCTAssertEqual(ban.operatorEmail, "mod@example.com")
            XCTAssertEqual(ban.appId, AdminHarness.quotehub.appID)
            XCTAssertEqual(ban.targetKind, "user")
            XCTAssertEqual(ban.targetId, Self.user)
            XCTAssertEqual(ban.requestId, "req-ban-1")
            XCTAssertEqual(ban.address, "127.0.0.1")
            XCTAssertTrue(ban.after?.contains("harassment") == true)
            XCTAssertEqual(
                Set(entries.map(\.action)), ["session.create", "user.ban", "user.unban"], "sign-ins are recorded too")
            let first = try XCTUnwrap(try JSON.array(log.body).first)
            let required: Set<String> = ["id", "at", "operatorId", "operatorEmail", "address", "action", "requestId"]
            XCTAssertTrue(required.isSubset(of: first.keys), "\(first.keys)")
            XCTAssertTrue(Set(first.keys).isSubset(of: required.union(["appId", "targetKind", "targetId", "before", "after"])), "\(first.keys)")
            let filtered = try await client.execute(uri: "/admin/api/audit?action=user.unban", method: .get, headers: ownerSession.headers())
            XCTAssertEqual(try JSONCoding.decoder.decode([AuditEntryAnswer].self, from: filtered.body).map(\.action), ["user.unban"])

            let adminSession = try await AdminHarness.session(client, admin)
            let adminLog = try await client.execute(uri: "/admin/api/audit", method: .get, headers: adminSession.headers())
            XCTAssertEqual(
                try JSONCoding.decoder.decode([AuditEntryAnswer].self, from: adminLog.body), [],
                "an admin of GLINT reads GLINT's lines only")
        }
    }

    func testTheAuditLogCannotBeChanged() async throws {
        let harness = try await AdminHarness.make()
        try await harness.stores.audit.append(
            AuditRecord(
                id: "a1", at: 1, operatorID: "o", operatorEmail: "o@example.com", address: "127.0.0.1", action: "user.ban", appID: "x",
                targetKind: nil, targetID: nil, before: nil, after: nil, requestID: "r"))
        for statement in ["UPDATE audit_entry SET action = 'user.unban'", "DELETE FROM audit_entry"] {
            do {
                try await harness.engine.execute(statement)
                XCTFail("\(statement) went through")
            } catch {}
        }
        let kept = try await harness.stores.audit.entries(AuditQuery())
        XCTAssertEqual(kept.map(\.action), ["user.ban"])
    }

    func testAddingAnOperatorValidatesAndRefusesADuplicate() async throws {
        let harness = try await AdminHarness.make()
        let added = try await harness.registry.add(email: "new@example.com", role: .moderator, apps: ["QuoteHub", " "])
        XCTAssertEqual(added.record.appList, ["QuoteHub"])
        XCTAssertEqual(added.password.count, 20)
        XCTAssertTrue(added.totpURI.hasPrefix("otpauth://totp/Glint:new%40example.com?secret="), added.totpURI)
        for (email, role, apps, expected) in [
            ("NEW@example.com", OperatorRole.admin, [String](), ErrorCode.conflict), ("nobody", .admin, [], .badRequest),
            ("o@example.com", .owner, ["GLINT"], .badRequest),
        ] {
            do {
                _ = try await harness.registry.add(email: email, role: role, apps: apps)
                XCTFail("\(email) was added")
            } catch let error as ServiceError {
                XCTAssertEqual(error.code, expected, email)
            }
        }
    }
}

/// An app's users through admin-svc: search and a user's page (coins for owners and admins, not
/// moderators), sign-out everywhere and deletion (not a moderator's), each audited.
final class UserAdminRoutesTests: XCTestCase {
    static let user = "6740369b3a36e82f532ec7dd"

    func testSearchPageSignOutAndDelete() async throws {
        let harness = try await AdminHarness.make()
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["GLINT"])
        let admin = try await harness.addOperator("admin@example.com", role: .admin, apps: ["GLINT"])
        let app = AdminHarness.glint.appID
        try await harness.app.test(.router) { client in
            let mod = try await AdminHarness.session(client, moderator)
            let found = try await client.execute(uri: "/admin/api/apps/\(app)/users?q=\(Self.user)", method: .get, headers: mod.headers())
            XCTAssertEqual(found.status, .ok)
            XCTAssertEqual(try JSONCoding.decoder.decode([OperatorUserSummary].self, from: found.body).map(\.id), [Self.user])
            let page = try await client.execute(uri: "/admin/api/apps/\(app)/users/\(Self.user)", method: .get, headers: mod.headers())
            let modDetail = try JSONCoding.decoder.decode(OperatorUserDetail.self, from: page.body)
            XCTAssertNil(modDetail.coins, "no wallets for moderators")
            XCTAssertNil(modDetail.payments, "no payments for moderators")
            XCTAssertEqual(modDetail.devices?.map(\.tokenEnd), ["abcdef"], "devices are a moderator's to see")
            let signOut = try await client.execute(uri: "/admin/api/apps/\(app)/users/\(Self.user)/sign-out", method: .post, headers: mod.headers())
            XCTAssertEqual(try JSONCoding.decoder.decode(SignOutAnswer.self, from: signOut.body).sessions, 2)
            XCTAssertEqual(harness.bans.signedOut.withLock { $0.map(\.userID) }, [Self.user])
            let modDelete = try await client.execute(uri: "/admin/api/apps/\(app)/users/\(Self.user)/delete", method: .post, headers: mod.headers())
            XCTAssertEqual(modDelete.status, .forbidden)
            XCTAssertTrue(harness.bans.deleted.withLock { $0.isEmpty })

            let adm = try await AdminHarness.session(client, admin)
            let adminPage = try await client.execute(uri: "/admin/api/apps/\(app)/users/\(Self.user)", method: .get, headers: adm.headers())
            let adminDetail = try JSONCoding.decoder.decode(OperatorUserDetail.self, from: adminPage.body)
            XCTAssertEqual(adminDetail.coins, 70)
            XCTAssertEqual(adminDetail.payments?.map(\.name), ["10 Coin"])
            let deleted = try await client.execute(uri: "/admin/api/apps/\(app)/users/\(Self.user)/delete", method: .post, headers: adm.headers())
            XCTAssertEqual(deleted.status, .ok)
            XCTAssertEqual(harness.bans.deleted.withLock { $0.map(\.appID) }, [app])
            let log = try await harness.stores.audit.entries(AuditQuery())
            XCTAssertEqual(log.filter { $0.action.hasPrefix("user.") }.map(\.action), ["user.delete", "user.sign_out"])
        }
    }
}
