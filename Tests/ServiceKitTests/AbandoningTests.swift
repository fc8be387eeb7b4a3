import ServiceKit
import Synchronization
import XCTest

/// `abandoning` stops waiting for work that never ends (a driver that lost a completion): at
/// its limit, and at once when its caller is cancelled; work that ends in time is answered.
final class AbandoningTests: XCTestCase {
    /// Work that ignores cancellation and ends only when the test lets it.
    private final class StuckWork: Sendable {
        private let continuation = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let started = AsyncStream<Void>.makeStream()

        func run() async -> Int {
            await withCheckedContinuation { continuation in
                self.continuation.withLock { $0 = continuation }
                started.continuation.yield()
            }
            return 1
        }

        func release() {
            continuation.withLock { $0.take() }?.resume()
        }
    }

    func testWorkInTimeIsAnsweredAndItsErrorsPassThrough() async throws {
        let value = try await abandoning(after: .seconds(10)) { 42 }
        XCTAssertEqual(value, 42)
        struct Failure: Error {}
        do {
            _ = try await abandoning(after: .seconds(10)) { () async throws -> Int in throw Failure() }
            XCTFail("the work's error is thrown")
        } catch {
            XCTAssertTrue(error is Failure)
        }
    }

    func testStuckWorkIsLeftAtItsLimit() async throws {
        let work = StuckWork()
        defer { work.release() }
        let started = ContinuousClock.now
        do {
            _ = try await abandoning(after: .milliseconds(200)) { await work.run() }
            XCTFail("stuck work is not waited for")
        } catch let error as OperationAbandoned {
            XCTAssertEqual(error.limit, .milliseconds(200))
        }
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(200))
    }

    func testCancellingTheCallerLeavesStuckWorkAtOnce() async throws {
        let work = StuckWork()
        defer { work.release() }
        let caller = Task { try await abandoning(after: .seconds(3600)) { await work.run() } }
        var starts = work.started.stream.makeAsyncIterator()
        _ = await starts.next()
        caller.cancel()
        let outcome = await caller.result
        XCTAssertThrowsError(try outcome.get()) { XCTAssertTrue($0 is CancellationError) }
    }
}
