import Dispatch
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import XCTest

@testable import ServiceKit

/// The hook replaces Swift's global executor for the whole process, so it is installed in a
/// child: this test runs itself again in a process of its own (the same test bundle, this test
/// only), which installs it and checks how tasks run.
final class EventLoopGlobalExecutorTests: XCTestCase {
    private static let childVariable = "GLINT_TEST_EXECUTOR_CHILD"

    func testTasksRunOnTheLoopAndNonisolatedCallsDoNotHop() throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] == "1" { return try checkInstalled() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["ServiceKitTests.EventLoopGlobalExecutorTests/testTasksRunOnTheLoopAndNonisolatedCallsDoNotHop"]
        process.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, printed)
        XCTAssertTrue(printed.contains("Executed 1 test, with 0 failures"), printed)
    }

    /// In the child: a task made on a loop runs on that loop, and a nonisolated `async` call in
    /// it continues at once. With NIO's own hook that call hops (the job is isolated to the loop's
    /// serial executor, so entering a nonisolated function switches to the generic one): the
    /// work already queued on the loop would run first.
    private func checkInstalled() throws {
        XCTAssertTrue(EventLoopGlobalExecutor.install())
        XCTAssertFalse(EventLoopGlobalExecutor.install(), "a second install leaves the first hook")
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let order = Entries()
        let finished = loop.makePromise(of: Bool.self)
        loop.execute {
            Task {
                let onLoop = loop.inEventLoop
                loop.execute { order.append("queued on the loop") }
                await appendAfterEntering(order, "nonisolated call")
                finished.succeed(onLoop && loop.inEventLoop)
            }
        }
        XCTAssertTrue(try finished.futureResult.wait(), "the task ran on the loop that made it")
        try loop.submit {}.wait()
        XCTAssertEqual(order.list.withLock { $0 }, ["nonisolated call", "queued on the loop"])
        try checkResumedOnTheCallingLoop(loop)
    }

    /// A continuation resumed through `CallingLoop` continues on the loop its task waited on,
    /// whether another loop resumes it (a batch answering many callers: resumed in place, it would
    /// go on on that loop) or a thread that is no loop (the hook would pick any loop: each such
    /// round has the odds of one in the loops' number).
    private func checkResumedOnTheCallingLoop(_ loop: any EventLoop) throws {
        let other = MultiThreadedEventLoopGroup.singleton.makeIterator().first { $0 !== loop } ?? loop
        let resumers: [@Sendable (@escaping @Sendable () -> Void) -> Void] = [{ other.execute($0) }, { DispatchQueue.global().async(execute: $0) }]
        for resumer in resumers {
            for _ in 0..<4 {
                let resumed = loop.makePromise(of: Bool.self)
                loop.execute {
                    Task {
                        let caller = CallingLoop()
                        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                            resumer { caller.resume(continuation, with: .success(())) }
                        }
                        resumed.succeed(loop.inEventLoop)
                    }
                }
                XCTAssertTrue(try resumed.futureResult.wait(), "resumed on the loop it waited on")
            }
        }
    }
}

private final class Entries: Sendable {
    let list = Mutex<[String]>([])

    func append(_ entry: String) { list.withLock { $0.append(entry) } }
}

@inline(never)
private func appendAfterEntering(_ order: Entries, _ entry: String) async {
    order.append(entry)
}
