import Foundation
import TestSupport
import XCTest

/// The test harness's own child process: a test that reads a program's output after its exit
/// reads all of it (CI once read half of a JSON document a script had printed and exited).
final class RunningProcessTests: XCTestCase {
    func testTheExitIsAnsweredWithTheWholeOutput() async throws {
        for _ in 0..<20 {
            // Much more than a pipe holds, and a last line with no newline.
            let process = try RunningProcess(
                url: URL(fileURLWithPath: "/bin/sh"), name: "sh", arguments: ["-c", "seq 1 50000; printf last"], environment: [:])
            let status = try await process.exitStatus()
            XCTAssertEqual(status, 0)
            let lines = process.transcript.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, 50001)
            XCTAssertEqual(lines.last, "last")
        }
    }

    func testAWaitedLineThatNeverComesEndsAtTheExit() async throws {
        let process = try RunningProcess(
            url: URL(fileURLWithPath: "/bin/sh"), name: "sh", arguments: ["-c", "echo one; printf two"], environment: [:])
        let two = try await process.line(containing: "two")
        XCTAssertEqual(two, "two", "a last line without its newline is a line")
        do {
            _ = try await process.line(containing: "three")
            XCTFail("no line 'three'")
        } catch let timeout as RunningProcess.Timeout {
            XCTAssertEqual(timeout.transcript, "one\ntwo")
        }
    }
}
