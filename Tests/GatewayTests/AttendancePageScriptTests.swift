import Foundation
import HummingbirdTesting
import TestSupport
import XCTest

@testable import Gateway

/// Runs the attendance page's script in Node with a stand-in for WKWebView's message handlers,
/// a DOM of the page's elements and a recording `fetch`: the app's side of the contract.
final class AttendancePageScriptTests: XCTestCase {
    static let harness = #"""
        const fs = require('fs');
        const script = fs.readFileSync(0, 'utf8');
        const posted = [], calls = [];
        const elements = {};
        const element = (id) => elements[id] ??= { id, style: {}, textContent: '', value: '', addEventListener(type, f) { this.listener = f; } };
        const bridged = process.argv.includes('bridge');
        global.window = bridged ? { webkit: { messageHandlers: {
          click_attendance_button: { postMessage: (m) => posted.push(['click_attendance_button', m]) },
          complete_attendance: { postMessage: (m) => posted.push(['complete_attendance', m]) },
        } } } : {};
        global.document = { getElementById: element };
        global.fetch = async (url, options) => { calls.push({ url, options }); return { ok: true, status: 200, text: async () => '{"attendanceCount":3}' }; };
        eval(script);
        (async () => {
          if (!bridged) { element('token').value = 'TYPED-TOKEN'; element('key').value = 'TYPED-KEY'; }
          element('attend').listener();
          if (bridged) await window.requestAttendance('APP-TOKEN');
          await new Promise((r) => setTimeout(r, 0));
          console.log(JSON.stringify({ posted, calls, result: element('result').textContent, manual: element('manual').style.display || '' }));
        })();
        """#

    struct Outcome: Decodable {
        struct Call: Decodable {
            struct Options: Decodable { var method: String; var headers: [String: String] }
            var url: String
            var options: Options
        }
        var posted: [[JSONAny]]
        var calls: [Call]
        var result: String
        var manual: String
    }

    /// Any JSON, for the handler messages.
    enum JSONAny: Decodable, Equatable {
        case string(String)
        case number(Double)
        case object([String: Double])
        case null
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .object(try container.decode([String: Double].self))
            }
        }
    }

    private func run(page html: String, mode: String) throws -> Outcome {
        let start = try XCTUnwrap(html.range(of: "<script>")), end = try XCTUnwrap(html.range(of: "</script>"))
        let script = String(html[start.upperBound..<end.lowerBound])
        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        node.arguments = ["node", "-e", Self.harness, "--", mode]
        let input = Pipe(), output = Pipe()
        node.standardInput = input
        node.standardOutput = output
        try node.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        node.waitUntilExit()
        XCTAssertEqual(node.terminationStatus, 0, "node failed (is nodejs installed?)")
        return try JSONDecoder().decode(Outcome.self, from: data)
    }

    func testInsideTheAppsWebView() async throws {
        let html = try await GatewayTests.makeApp(GatewayTests.FakeServices()).test(.router) { client in
            try await client.execute(uri: "/event-application", method: .get, headers: [.sesacKey: "key-lslp"]).body.text
        }
        let outcome = try run(page: html, mode: "bridge")
        XCTAssertEqual(outcome.posted.first?.first, .string("click_attendance_button"), "the button asks the app")
        XCTAssertEqual(outcome.calls.count, 1)
        XCTAssertEqual(outcome.calls[0].url, "/v1/users/attendance")
        XCTAssertEqual(outcome.calls[0].options.method, "POST")
        XCTAssertEqual(outcome.calls[0].options.headers, ["SeSACKey": "key-lslp", "Authorization": "APP-TOKEN"])
        XCTAssertEqual(outcome.posted.last, [JSONAny.string("complete_attendance"), JSONAny.object(["attendanceCount": 3])])
        XCTAssertEqual(outcome.manual, "", "no token field inside the app")
    }

    func testInAPlainBrowser() async throws {
        let html = try await GatewayTests.makeApp(GatewayTests.FakeServices()).test(.router) { client in
            try await client.execute(uri: "/event-application", method: .get).body.text
        }
        let outcome = try run(page: html, mode: "browser")
        XCTAssertEqual(outcome.manual, "block", "key and token fields are shown")
        XCTAssertEqual(outcome.calls.first?.options.headers, ["SeSACKey": "TYPED-KEY", "Authorization": "TYPED-TOKEN"])
        XCTAssertTrue(outcome.posted.isEmpty)
        XCTAssertTrue(outcome.result.contains("3"), outcome.result)
    }
}
