import ServiceClients
import ServiceKit
import Synchronization
import XCTest

/// The consuming side of an outbox in tests: what a faked service received, in order.
package final class EventRecorder<Event: Codable & Sendable>: Sendable {
    package let received = Mutex<[Event]>([])

    package init() {}

    /// A client for the service under test that records instead of sending.
    package var client: EventClient<Event> {
        EventClient { event in self.received.withLock { $0.append(event) } }
    }

    /// The same for a service that sends its events in batches.
    package var batchClient: EventClient<[Event]> {
        EventClient { events in self.received.withLock { $0 += events } }
    }

    /// The first `count` events, once that many arrived (relays retry on their own clock).
    package func events(count: Int) async throws -> [Event] {
        let found = await HTTPProbe.eventually(within: .seconds(15)) { () -> [Event]? in
            self.received.withLock { $0.count >= count ? $0 : nil }
        }
        return try XCTUnwrap(found, "\(count) events never arrived")
    }
}
