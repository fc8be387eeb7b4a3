import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// The console's pages with JavaScript off: plain GETs and form POSTs carrying the CSRF token as a
/// field, answered with pages or POST/redirect/GET, every action reaching the same desks (and so
/// the same fakes) as the admin API.
final class ConsoleFormTests: XCTestCase {
    /// A browser without scripts: the cookie it was given, the CSRF token of the last page read.
    struct Browser {
        let client: any TestClientProtocol
        var cookie: String?
        var csrf = ""

        func headers(_ extra: [(String, String)] = []) -> HTTPFields {
            AdminHarness.headers((cookie.map { [("Cookie", "glint_admin=\($0)")] } ?? []) + extra)
        }

        mutating func get(_ path: String) async throws -> TestResponse {
            let response = try await client.execute(uri: path, method: .get, headers: headers())
            if let token = Self.csrf(in: String(buffer: response.body)) { csrf = token }
            return response
        }

        mutating func post(_ path: String, _ form: [String: String], csrf withCSRF: Bool = true) async throws -> TestResponse {
            let response = try await client.execute(
                uri: path, method: .post, headers: headers([("Content-Type", "application/x-www-form-urlencoded")]),
                body: ByteBuffer(string: FormEncoding.encode(withCSRF ? form.merging(["csrf": csrf]) { a, _ in a } : form)))
            if let set = response.headers[.setCookie] {
                let value = set.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[1]
                cookie = value.isEmpty ? nil : String(value)
            }
            return response
        }

        static func csrf(in html: String) -> String? {
            guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }

        /// Signs in and chooses a password on the first visit, as a new operator does.
        mutating func signIn(_ op: AdminHarness.Operator, firstTime: Bool) async throws {
            let answer = try await post("/admin/sign-in", ["email": op.email, "password": op.password, "code": op.code()], csrf: false)
            XCTAssertEqual(answer.status, .seeOther, String(buffer: answer.body))
            XCTAssertEqual(answer.headers[.location], firstTime ? "/admin/password" : "/admin")
            guard firstTime else { return }
            _ = try await get("/admin/password")
            let changed = try await post(
                "/admin/password",
                ["current_password": op.password, "new_password": "a long enough secret", "repeat_password": "a long enough secret"])
            XCTAssertEqual(changed.headers[.location], "/admin?done=password", String(buffer: changed.body))
        }
    }

    static let app = ReportQueueTests.app

    func testSignInAndTheFirstPasswordChangeWithoutScripts() async throws {
        let harness = try await AdminHarness.make()
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        try await harness.app.test(.router) { client in
            var browser = Browser(client: client)
            let away = try await browser.get("/admin")
            XCTAssertEqual(away.status, .seeOther)
            XCTAssertEqual(away.headers[.location], "/admin/sign-in")
            let form = try await browser.get("/admin/sign-in")
            XCTAssertEqual(form.status, .ok)
            XCTAssertEqual(form.headers[.contentType], "text/html; charset=utf-8")
            XCTAssertEqual(
                form.headers[.contentSecurityPolicy], "default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
            XCTAssertEqual(form.headers[HTTPField.Name("X-Frame-Options")!], "DENY")
            XCTAssertTrue(String(buffer: form.body).contains(#"name="code""#))
            let scripts = String(buffer: form.body).components(separatedBy: "<script").dropFirst()
            XCTAssertEqual(scripts.map { $0.prefix { $0 != ">" } }, [#" src="/admin/console.js" defer"#], "one script, from /admin, none inline")
            let script = try await browser.get("/admin/console.js")
            XCTAssertEqual(script.headers[.contentType], "text/javascript; charset=utf-8")

            let wrong = try await browser.post(
                "/admin/sign-in", ["email": owner.email, "password": owner.password, "code": "000000"], csrf: false)
            XCTAssertEqual(wrong.status, .unauthorized)
            XCTAssertTrue(String(buffer: wrong.body).contains("Sign-in failed"))
            XCTAssertNil(browser.cookie)

            let signedIn = try await browser.post(
                "/admin/sign-in", ["email": owner.email, "password": owner.password, "code": owner.code()], csrf: false)
            XCTAssertEqual(signedIn.headers[.location], "/admin/password", "a one-time password is changed first")
            XCTAssertNotNil(browser.cookie)
            let fetched1 = try await browser.get("/admin/audit")
            XCTAssertEqual(fetched1.headers[.location], "/admin/password")

            let page = try await browser.get("/admin/password")
            XCTAssertEqual(page.status, .ok)
            XCTAssertFalse(browser.csrf.isEmpty)
            let noToken = try await browser.post(
                "/admin/password", ["current_password": owner.password, "new_password": "x".repeated(12), "repeat_password": "x".repeated(12)],
                csrf: false)
            XCTAssertEqual(noToken.status, .forbidden, "a form without the session's CSRF token is refused")
            let mismatch = try await browser.post(
                "/admin/password", ["current_password": owner.password, "new_password": "x".repeated(12), "repeat_password": "y".repeated(12)])
            XCTAssertEqual(mismatch.status, .badRequest)
            XCTAssertTrue(String(buffer: mismatch.body).contains("differ"))
            let short = try await browser.post(
                "/admin/password", ["current_password": owner.password, "new_password": "short", "repeat_password": "short"])
            XCTAssertEqual(short.status, .badRequest)
            let changed = try await browser.post(
                "/admin/password",
                ["current_password": owner.password, "new_password": "정말 긴 비밀번호입니다", "repeat_password": "정말 긴 비밀번호입니다"])
            XCTAssertEqual(changed.headers[.location], "/admin?done=password")
            let home = try await browser.get("/admin?done=password")
            XCTAssertEqual(home.status, .ok, String(buffer: home.body))
            let html = String(buffer: home.body)
            XCTAssertTrue(html.contains("Your password is changed."))
            XCTAssertTrue(html.contains("QuoteHub") && html.contains("GLINT"), "an owner sees every app")

            // The old password no longer opens; the new one does, straight to the overview.
            var other = Browser(client: client)
            let old = try await other.post(
                "/admin/sign-in", ["email": owner.email, "password": owner.password, "code": owner.code(steps: 1)], csrf: false)
            XCTAssertEqual(old.status, .unauthorized)
            var changedOwner = owner.withStep(1)
            changedOwner.password = "정말 긴 비밀번호입니다"
            try await other.signIn(changedOwner, firstTime: false)
            let out = try await browser.post("/admin/sign-out", [:])
            XCTAssertEqual(out.headers[.location], "/admin/sign-in")
            XCTAssertNil(browser.cookie, "the cookie is cleared")
        }
    }

    func testTheQueueActsFromFormsAndShowsKoreanAsWritten() async throws {
        let harness = try await AdminHarness.make()
        ReportQueueTests.seed(harness)
        harness.bans.content.withLock { $0[ReportQueueTests.story]?.preview = "나쁜 <b>이야기</b>" }
        let moderator = try await harness.addOperator("mod@example.com", role: .moderator, apps: ["QuoteHub"])
        try await harness.app.test(.router) { client in
            var browser = Browser(client: client)
            try await browser.signIn(moderator, firstTime: true)
            let home = String(buffer: try await browser.get("/admin").body)
            XCTAssertTrue(home.contains(#"<span class="age overdue">25h</span>"#), "the oldest report is past a day: \(home)")
            XCTAssertFalse(home.contains("GLINT"), "a QuoteHub moderator sees QuoteHub alone")
            XCTAssertFalse(home.contains("/admin/audit"), "no audit log for moderators")

            let queue = try await browser.get("/admin/apps/\(Self.app)/reports")
            XCTAssertEqual(queue.status, .ok)
            let html = String(buffer: queue.body)
            XCTAssertTrue(html.contains("나쁜 &lt;b&gt;이야기&lt;/b&gt;"), "text is escaped, Korean kept: \(html)")
            XCTAssertTrue(html.contains("nick-" + ReportQueueTests.author.suffix(4)))
            XCTAssertTrue(html.contains(#"action="/admin/apps/\#(Self.app)/reports/story/\#(ReportQueueTests.story)""#))

            let hide = try await browser.post(
                "/admin/apps/\(Self.app)/reports/story/\(ReportQueueTests.story)", ["action": "hide", "reason": "욕설"])
            XCTAssertEqual(hide.status, .seeOther, String(buffer: hide.body))
            XCTAssertEqual(hide.headers[.location], "/admin/apps/\(Self.app)/reports?done=hidden")
            XCTAssertEqual(harness.bans.content.withLock { $0[ReportQueueTests.story]?.hiddenBy }, moderator.id)
            let ban = try await browser.post(
                "/admin/apps/\(Self.app)/reports/story/\(ReportQueueTests.story)", ["action": "ban", "reason": "반복", "duration": "7d"])
            XCTAssertEqual(ban.headers[.location], "/admin/apps/\(Self.app)/reports?done=banned")
            let asked = try XCTUnwrap(harness.bans.asked.withLock { $0.last })
            XCTAssertEqual(asked.userID, ReportQueueTests.author)
            XCTAssertEqual(asked.request?.reason, "반복")
            let until = try XCTUnwrap(asked.request?.until)
            XCTAssertEqual(until.timeIntervalSinceNow, 7 * 86_400, accuracy: 60)
            XCTAssertEqual(harness.bans.closings.withLock { $0.map(\.action) }, ["hidden", "banned"])

            let badDuration = try await browser.post(
                "/admin/apps/\(Self.app)/reports/story/\(ReportQueueTests.story)", ["action": "ban", "duration": "2y"])
            XCTAssertEqual(badDuration.status, .badRequest)
            let forged = try await browser.post("/admin/apps/\(Self.app)/reports/story/\(ReportQueueTests.story)", ["action": "dismiss"], csrf: false)
            XCTAssertEqual(forged.status, .forbidden)
            let elsewhere = try await browser.get("/admin/apps/\(AdminHarness.glint.appID)/reports")
            XCTAssertEqual(elsewhere.status, .notFound, "another app does not exist for a QuoteHub moderator")
            let fetched2 = try await browser.get("/admin/operators")
            XCTAssertEqual(fetched2.status, .forbidden)
            let tooBig = try await browser.post("/admin/apps/\(Self.app)/reports/user/\(ReportQueueTests.author)", ["reason": "x".repeated(70_000)])
            XCTAssertEqual(tooBig.status, .contentTooLarge)
        }
    }

    func testUsersContentOperatorsAndTheAuditLogFromForms() async throws {
        let harness = try await AdminHarness.make()
        ReportQueueTests.seed(harness)
        let owner = try await harness.addOperator("owner@example.com", role: .owner)
        let user = ReportQueueTests.author, story = ReportQueueTests.story
        try await harness.app.test(.router) { client in
            var browser = Browser(client: client)
            try await browser.signIn(owner, firstTime: true)
            let found = String(buffer: try await browser.get("/admin/apps/\(Self.app)/users?q=\(user)").body)
            XCTAssertTrue(found.contains(#"href="/admin/apps/\#(Self.app)/users/\#(user)""#), found)
            let page = try await browser.get("/admin/apps/\(Self.app)/users/\(user)")
            XCTAssertEqual(page.status, .ok)
            let html = String(buffer: page.body)
            for shown in ["found@example.com", "<dd>70</dd>", "imp_1", "…abcdef"] { XCTAssertTrue(html.contains(shown), "\(shown) in \(html)") }
            for (action, form) in [("ban", ["reason": "스팸", "duration": "forever"]), ("unban", [:]), ("sign-out", [:])] {
                let done = try await browser.post("/admin/apps/\(Self.app)/users/\(user)/\(action)", form)
                XCTAssertEqual(done.status, .seeOther, "\(action): \(String(buffer: done.body))")
            }
            XCTAssertEqual(harness.bans.asked.withLock { $0.map { $0.request == nil } }, [false, true], "a ban, then its lifting")
            XCTAssertNil(harness.bans.asked.withLock { $0.first?.request?.until }, "for ever")
            XCTAssertEqual(harness.bans.signedOut.withLock { $0.map(\.userID) }, [user])
            let unconfirmed = try await browser.post("/admin/apps/\(Self.app)/users/\(user)/delete", [:])
            XCTAssertEqual(unconfirmed.status, .badRequest)
            XCTAssertTrue(harness.bans.deleted.withLock { $0.isEmpty })
            let deleted = try await browser.post("/admin/apps/\(Self.app)/users/\(user)/delete", ["confirm": "yes"])
            XCTAssertEqual(deleted.headers[.location], "/admin/apps/\(Self.app)/users?done=deleted")

            let content = String(buffer: try await browser.get("/admin/apps/\(Self.app)/content?kind=story&id=\(story)").body)
            XCTAssertTrue(content.contains("나쁜 이야기"), content)
            let hidden = try await browser.post("/admin/apps/\(Self.app)/content/story/\(story)/hide", ["reason": "x"])
            XCTAssertEqual(hidden.headers[.location], "/admin/apps/\(Self.app)/content?kind=story&id=\(story)&done=hidden")
            let hiddenPage = try await browser.get("/admin/apps/\(Self.app)/content?kind=story&id=\(story)")
            XCTAssertTrue(String(buffer: hiddenPage.body).contains("Restore"))
            _ = try await browser.post("/admin/apps/\(Self.app)/content/story/\(story)/restore", [:])
            XCTAssertEqual(harness.bans.content.withLock { $0[story]?.hidden }, false)
            let badKind = try await browser.get("/admin/apps/\(Self.app)/content?kind=book&id=\(story)")
            XCTAssertEqual(badKind.status, .notFound)

            _ = try await browser.get("/admin/operators")
            let added = try await browser.post("/admin/operators", ["email": "New@Example.com", "role": "moderator", "apps": "QuoteHub"])
            XCTAssertEqual(added.status, .ok)
            let credentials = String(buffer: added.body)
            XCTAssertTrue(credentials.contains("otpauth://totp/"), credentials)
            XCTAssertTrue(credentials.contains(#"<code id="password">"#))
            let newcomerRecord = try await harness.stores.operators.find(email: "new@example.com")
            let newcomer = try XCTUnwrap(newcomerRecord)
            XCTAssertEqual(newcomer.appList, ["QuoteHub"])
            let role = try await browser.post("/admin/operators/\(newcomer.id)/role", ["role": "admin", "apps": "QuoteHub, GLINT"])
            XCTAssertEqual(role.headers[.location], "/admin/operators?done=operator-changed")
            let changedRecord = try await harness.stores.operators.find(id: newcomer.id)
            XCTAssertEqual(changedRecord?.role, .admin)
            let removeSelf = try await browser.post("/admin/operators/\(owner.id)/remove", [:])
            XCTAssertEqual(removeSelf.status, .conflict)
            let removed = try await browser.post("/admin/operators/\(newcomer.id)/remove", [:])
            XCTAssertEqual(removed.headers[.location], "/admin/operators?done=operator-removed")

            let audit = String(buffer: try await browser.get("/admin/audit?app=\(Self.app)").body)
            for action in ["user.ban", "user.unban", "user.sign_out", "user.delete", "content.hide", "content.restore"] {
                XCTAssertTrue(audit.contains("<td>\(action)</td>"), "\(action) in the audit page")
            }
            let operators = String(buffer: try await browser.get("/admin/audit?action=operator.add").body)
            XCTAssertTrue(operators.contains("operator.add") && !operators.contains("<td>user.ban</td>"))
            let fetched4 = try await browser.get("/admin/audit?limit=0")
            XCTAssertEqual(fetched4.status, .badRequest)
        }
    }
}

extension String {
    fileprivate func repeated(_ count: Int) -> String { String(repeating: self, count: count) }
}
