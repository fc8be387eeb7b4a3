import Contracts
import Foundation
import ServiceKit
import TestSupport
import XCTest

/// The attendance page (API.md §7) in a real browser: headless Chromium driven by Selenium
/// (`Python/attendance_browser.py`) against the gateway and auth-svc, as a person in a plain
/// browser and as the app's web view with its message handlers. Saves a screenshot under
/// `.build/screenshots/`.
final class AttendanceBrowserTests: XCTestCase {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Python/attendance_browser.py").path
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/screenshots")
        .standardized

    struct Seen: Decodable {
        struct Result: Decodable, Equatable {
            var text: String
            var state: String
        }

        var manual_shown: Bool
        var first: Result
        var second: Result
        var button_disabled: Bool
        var bridged_manual_shown: Bool
        var after_click: [[String]]
        var bridged: Result
        var posted: [Message]
    }

    /// `[handler name, message]` as the stand-in recorded it.
    struct Message: Decodable, Equatable {
        var handler: String
        var attendanceCount: Int?

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            handler = try container.decode(String.self)
            attendanceCount = (try? container.decode([String: Int].self))?["attendanceCount"]
        }
    }

    func testThePageInHeadlessChromium() async throws {
        let python = try ChatThroughGatewayTests.python()
        let suite = try await AuthAndGateway.start()
        do {
            func token(_ nick: String) async throws -> String {
                let answer = try await suite.call(
                    .POST, "/v1/users/join", json: #"{"email":"\#(nick)@glint.app","password":"pass1234!","nick":"\#(nick)"}"#)
                XCTAssertEqual(answer.status, 200, answer.body.text)
                return try JSONDecoder().decode(AuthAnswer.self, from: answer.body).accessToken
            }
            let (first, second) = (try await token("reader"), try await token("appuser"))
            try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
            let screenshot = Self.screenshots.appendingPathComponent("attendance.png").path
            try? FileManager.default.removeItem(atPath: screenshot)
            let browser = try RunningProcess(
                url: python, name: "chromium", arguments: [Self.script, suite.gatewayURL, AuthAndGateway.appKey, first, second, screenshot],
                environment: ProcessInfo.processInfo.environment)
            let status = try await browser.exitStatus(within: .seconds(120))
            XCTAssertEqual(status, 0, browser.transcript)
            let line = try XCTUnwrap(browser.transcript.split(separator: "\n").last { $0.hasPrefix("{") }, browser.transcript)
            let seen = try JSONDecoder().decode(Seen.self, from: Data(line.utf8))

            XCTAssertTrue(seen.manual_shown, "a plain browser shows the token field")
            XCTAssertEqual(seen.first, Seen.Result(text: "1번째 출석 완료!", state: "done"))
            XCTAssertEqual(seen.second.state, "attended", seen.second.text)
            XCTAssertTrue(seen.second.text.contains("이미 출석"), seen.second.text)
            XCTAssertTrue(seen.button_disabled, "the button is off once today's attendance is in")

            XCTAssertFalse(seen.bridged_manual_shown, "inside the app the page asks the app, not the person")
            XCTAssertEqual(seen.after_click, [["click_attendance_button", "click"]])
            XCTAssertEqual(seen.bridged, Seen.Result(text: "1번째 출석 완료!", state: "done"))
            XCTAssertEqual(seen.posted.last?.handler, "complete_attendance")
            XCTAssertEqual(seen.posted.last?.attendanceCount, 1)
            let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG screenshot at \(screenshot)")
        } catch {
            XCTFail("\(error)")
        }
        await suite.stop()
    }
}
