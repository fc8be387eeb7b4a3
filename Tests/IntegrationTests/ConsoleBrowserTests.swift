import Contracts
import Foundation
import ServiceKit
import TestSupport
import XCTest

@testable import AdminService

/// The operator console (issue 36) in a real browser, every process real: headless Chromium driven
/// by Selenium (`Python/console_browser.py`) through the gateway. A QuoteHub reader reports a
/// story; an owner added with `glint admin add` signs in with a TOTP code, chooses a password,
/// finds the report in QuoteHub's queue and bans the author from it; the author is then refused
/// through the gateway. A screenshot of every screen lands in `.build/screenshots/console-*.png`.
final class ConsoleBrowserTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/console_browser.py").path
    static let operations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/console_operations.py")
        .path

    struct Seen: Decodable {
        var screens: [String]
        var asked_for_password: Bool
        var notice: String
        var queued_preview: String
        var queued_reasons: String
        var queued_image_width: Int
        var keyboard_focus: String
        var after_ban_notice: String
        var still_queued: Bool
        var user_page_banned: Bool
        var user_page_content: [String]
        var content_preview: String
        var audit_actions: [String]
        var console_errors: [String]
        var registered_key_status: Int
        var old_key: String
        var old_key_within_grace: Int
        var new_key: String
        var new_key_status: Int
    }

    /// The grace the browser rotates its new app's key with.
    static let grace = 10

    /// Each screen the browser saw was saved as a PNG.
    static func assertScreenshots(_ screens: [String]) throws {
        for screen in screens {
            let png = try Data(contentsOf: AttendanceBrowserTests.screenshots.appendingPathComponent("console-\(screen).png"))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG for \(screen)")
        }
    }

    func testAnOwnerBansAReportedAuthorFromTheQueueInChromium() async throws {
        let python = try ChatThroughGatewayTests.python()
        let quotehub = try await QuoteHubSuite.start(with: [.market, .chat, .admin, .push, .paymentVerify])
        do {
            let suite = quotehub.suite, replay = quotehub.replay
            let owner = try await ModerationThroughGatewayTests.addOperator(suite.dataDirectory, email: "owner@example.com", role: "owner")

            let (author, _, story) = try await ModerationThroughGatewayTests.reportedStory(replay)
            let before = try await replay.call(.GET, "/profile", author.token)
            XCTAssertEqual(before.status, 200)

            let screenshots = AttendanceBrowserTests.screenshots
            try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
            let browser = try RunningProcess(
                url: python, name: "chromium",
                arguments: [
                    Self.script, suite.gatewayURL, owner.email, owner.password, owner.totp.base32, "QuoteHub", story, author.id, screenshots.path,
                    "콘솔 앱", String(Self.grace),
                ],
                environment: ProcessInfo.processInfo.environment)
            let status = try await browser.exitStatus(within: .seconds(180))
            XCTAssertEqual(status, 0, browser.transcript)
            let line = try XCTUnwrap(browser.transcript.split(separator: "\n").last { $0.hasPrefix("{") }, browser.transcript)
            let seen = try JSONDecoder().decode(Seen.self, from: Data(line.utf8))

            XCTAssertTrue(seen.asked_for_password, "the first sign-in asks for a password of one's own")
            XCTAssertEqual(seen.notice, "Your password is changed.")
            XCTAssertEqual(seen.queued_preview, "신고될 이야기", "the story as the app shows it")
            XCTAssertEqual(seen.queued_reasons, "욕설")
            XCTAssertEqual(seen.keyboard_focus, "g-\(story)", "j moves to the first group (the console's script, under its CSP)")
            XCTAssertEqual(seen.after_ban_notice, "The user is banned.")
            XCTAssertFalse(seen.still_queued, "the group left the open queue")
            XCTAssertEqual(seen.queued_image_width, 16, "the story's photo drawn in the queue")
            XCTAssertTrue(seen.user_page_banned)
            XCTAssertEqual(seen.user_page_content, ["신고될 이야기"], "the author's story on their page")
            XCTAssertEqual(seen.content_preview, "신고될 이야기")
            XCTAssertEqual(Array(seen.audit_actions.prefix(2)), ["reports.close", "user.ban"], "newest first")
            XCTAssertEqual(seen.console_errors, [String](), "no CSP violation or failed load in the browser's console")
            try Self.assertScreenshots(seen.screens)
            XCTAssertEqual(seen.screens.count, 14)

            // The app registered from the console opens with its key (401: no token, not 420). The rotated-out key opened the app within its grace (401: no token, not 420: unknown
            // key), as the new one does; once the grace is over it opens nothing.
            XCTAssertEqual(seen.registered_key_status, 401)
            XCTAssertEqual(seen.old_key_within_grace, 401)
            XCTAssertEqual(seen.new_key_status, 401)
            let rotatedAt = ContinuousClock.now
            let refusedOld = await HTTPProbe.eventually(within: .seconds(Self.grace + 10), every: .milliseconds(100)) { () -> Duration? in
                let answer = try? await HTTPProbe.call(
                    .GET, suite.gatewayURL + "/v1/users/me/profile", headers: [("SeSACKey", seen.old_key)])
                return answer?.status == 420 ? ContinuousClock.now - rotatedAt : nil
            }
            XCTAssertNotNil(refusedOld, "the old key is refused once its grace is over")
            let newKey = try await HTTPProbe.call(.GET, suite.gatewayURL + "/v1/users/me/profile", headers: [("SeSACKey", seen.new_key)])
            XCTAssertEqual(newKey.status, 401, "the new key still opens the app")

            // Through the gateway, the author is refused (quotehub: 403) within a poll's answer.
            let refused = await HTTPProbe.eventually(within: .seconds(1), every: .milliseconds(10)) { () -> Bool? in
                (try? await replay.call(.GET, "/profile", author.token))?.status == 403 ? true : nil
            }
            XCTAssertEqual(refused, true, "the banned author is refused through the gateway")
        } catch {
            await quotehub.stop()
            throw error
        }
        await quotehub.stop()
    }

    struct Operations: Decodable {
        var screens: [String]
        var users_total: String
        var status_before: String
        var refund_notice: String
        var status_after: String
        var push_heading: String
        var request_status: String
        var request_lines: [[String]]
        var console_errors: [String]
    }

    /// A PortOne payment made here is refunded from the console (cancelled at the simulator, the
    /// filter no longer the buyer's), and a failed sign-in is found in the request log by its
    /// request id and followed into the services' logs.
    func testAnOwnerRefundsAPaymentAndFindsAFailedRequest() async throws {
        let python = try ChatThroughGatewayTests.python()
        let pg = try await PortOneSimulator.start()
        let suite = try await AuthAndGateway.start(
            ["PORTONE_API_URL": pg.url, "PORTONE_IMP_KEY": PortOneSimulator.key, "PORTONE_IMP_SECRET": PortOneSimulator.secret],
            with: [.market, .paymentVerify, .push, .admin])
        do {
            let owner = try await ModerationThroughGatewayTests.addOperator(suite.dataDirectory, email: "owner@example.com", role: "owner")
            func join(_ nick: String) async throws -> AuthAnswer {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body)
            }
            let seller = try await join("seller"), buyer = try await join("buyer")
            let created = try await suite.call(
                .POST, "/v1/filters", token: seller.accessToken,
                json:
                    #"{"category":"film","title":"warm","price":3000,"description":"d","files":["/data/filters/a.jpg"],"filter_values":{"brightness":0.1}}"#
            )
            let filterID = try JSON.string(try JSON.object(created.body), "filter_id")
            let ordered = try await suite.call(
                .POST, "/v1/orders", token: buyer.accessToken, json: #"{"filter_id":"\#(filterID)","total_price":3000}"#)
            let impUID = pg.createPayment(merchantUID: try JSON.string(try JSON.object(ordered.body), "order_code"), amount: 3000)
            let validated = try await suite.call(.POST, "/v1/payments/validation", token: buyer.accessToken, json: #"{"imp_uid":"\#(impUID)"}"#)
            XCTAssertEqual(validated.status, 200, validated.body.text)
            let failed = try await suite.call(.POST, "/v1/users/login", json: #"{"email":"buyer@glint.app","password":"wrong-password"}"#)
            XCTAssertGreaterThanOrEqual(failed.status, 400)
            let failedID = try XCTUnwrap(failed.headers.first(name: "x-request-id"))

            let screenshots = AttendanceBrowserTests.screenshots
            try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
            let browser = try RunningProcess(
                url: python, name: "chromium",
                arguments: [
                    Self.operations, suite.gatewayURL, owner.email, owner.password, owner.totp.base32, "Development", impUID, failedID,
                    screenshots.path,
                ], environment: ProcessInfo.processInfo.environment)
            let status = try await browser.exitStatus(within: .seconds(180))
            XCTAssertEqual(status, 0, browser.transcript)
            let line = try XCTUnwrap(browser.transcript.split(separator: "\n").last { $0.hasPrefix("{") }, browser.transcript)
            let seen = try JSONDecoder().decode(Operations.self, from: Data(line.utf8))

            XCTAssertEqual(seen.status_before, "paid")
            XCTAssertEqual(seen.refund_notice, "Refunded: PortOne cancelled the payment and its grant is taken back.")
            XCTAssertTrue(seen.status_after.hasPrefix("cancelled · refunded"), seen.status_after)
            XCTAssertEqual(pg.cancelled, [impUID], "cancelled at PortOne")
            let takenBack = await HTTPProbe.eventually(within: .seconds(20)) { () -> Bool? in
                let detail = try? await suite.call(.GET, "/v1/filters/\(filterID)", token: buyer.accessToken)
                return detail.flatMap { (try? JSON.object($0.body))?["is_downloaded"] as? Bool } == false ? true : nil
            }
            XCTAssertEqual(takenBack, true, "the refund took the filter back")

            XCTAssertEqual(seen.request_status, String(failed.status))
            XCTAssertTrue(
                seen.request_lines.contains { $0.count == 4 && $0[1] == "gateway" && $0[3].contains("/v1/users/login") },
                "the gateway's line of the request: \(seen.request_lines)")
            XCTAssertEqual(seen.console_errors, [String]())
            try Self.assertScreenshots(seen.screens)
            XCTAssertEqual(seen.screens, ["sign-in", "password", "overview", "payments", "payments-refunded", "push", "requests", "request"])
            XCTAssertEqual(seen.push_heading, "Push · Development")
            XCTAssertEqual(seen.users_total, "2", "every app's accounts: the seller and the buyer")

            // The overview through the admin API, after the refund: today's payment and its refund,
            // the users who joined today, each process read.
            let analyst = try await ModerationThroughGatewayTests.addOperator(suite.dataDirectory, email: "analyst@example.com", role: "owner")
            let session = try await ModerationThroughGatewayTests.signIn(suite.gatewayURL, analyst)
            let answer = try await HTTPProbe.call(
                .GET, suite.gatewayURL + "/admin/api/overview?days=7", headers: [("Cookie", session.cookie)])
            XCTAssertEqual(answer.status, 200, answer.body.text)
            let overview = try JSONCoding.decoder.decode(Overview.self, from: answer.body)
            XCTAssertEqual(overview.users?.total, 2)
            XCTAssertEqual(overview.users?.newUsers.last?.count, 2)
            XCTAssertEqual(overview.paymentsToday, PaymentActivity(payments: 1, paidAmount: 3000, refunds: 1, refundedAmount: 3000))
            XCTAssertEqual(overview.content?.posts.last?.count, 0)
            XCTAssertEqual(overview.unavailable, ["messages"], "chat-svc is not running in this suite")
            XCTAssertEqual(overview.processes.first { $0.service == "gateway" }?.status, "degraded", "up, with chat-svc down behind it")
            XCTAssertEqual(overview.processes.first { $0.service == "auth-svc" }?.status, "ok")
            XCTAssertEqual(overview.processes.first { $0.service == "chat-svc" }?.status, "unreachable")
        } catch {
            await suite.stop()
            throw error
        }
        await suite.stop()
    }
}
