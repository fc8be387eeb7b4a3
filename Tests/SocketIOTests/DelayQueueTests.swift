import Synchronization
import XCTest

@testable import SocketIO

final class DelayQueueTests: XCTestCase {
    private final class Item: Sendable {}

    /// Batches and when they fire, recorded by the queue's task.
    private final class Firings: Sendable {
        private let storage = Mutex<[(at: ContinuousClock.Instant, count: Int)]>([])
        let third = XCTestExpectation(description: "three batches")

        func record(_ count: Int) {
            if storage.withLock({
                $0.append((.now, count)); return $0.count
            }) == 3 {
                third.fulfill()
            }
        }

        var all: [(at: ContinuousClock.Instant, count: Int)] { storage.withLock { $0 } }
    }

    func testItemsAddedTogetherFireTogetherNeverBeforeTheirDelayAndAgainWhileHandedBack() async {
        let firings = Firings()
        let queue = DelayQueue<Item>(delay: .milliseconds(100), slack: .late) { items in
            firings.record(items.count)
            return items
        }
        let items = (0..<50).map { _ in Item() }
        let start = ContinuousClock.now
        queue.add(items)
        await fulfillment(of: [firings.third], timeout: 10)
        let batches = firings.all.prefix(3)
        XCTAssertEqual(batches.map(\.count), [50, 50, 50], "one batch each time")
        for (index, batch) in batches.enumerated() {
            XCTAssertGreaterThanOrEqual(batch.at - start, .milliseconds(100 * (index + 1)), "late slack never fires early")
        }
        withExtendedLifetime(items) {}
    }

    func testEarlySlackFiresAtMostAFewPercentBeforeDueAndItemsThatWentAreSkipped() async {
        let firings = Firings()
        let queue = DelayQueue<Item>(delay: .milliseconds(200), slack: .early) { items in
            firings.record(items.count)
            return items
        }
        var kept: [Item] = [Item(), Item()]
        let start = ContinuousClock.now
        queue.add(kept + [Item()])  // the third has no owner: it is gone before it is due
        await fulfillment(of: [firings.third], timeout: 10)
        XCTAssertEqual(firings.all.prefix(3).map(\.count), [2, 2, 2])
        XCTAssertGreaterThanOrEqual(firings.all[0].at - start, .milliseconds(190), "at most a twentieth early")
        kept.removeAll()
    }
}
