import Contracts
import ServiceKit

/// A service that takes one kind of event from a producer's outbox (geo-svc takes post
/// locations, push-svc chat messages) and applies it idempotently by its key.
package struct EventClient<Event: Codable & Sendable>: Sendable {
    package var send: @Sendable (Event) async throws -> Void

    package init(send: @escaping @Sendable (Event) async throws -> Void) {
        self.send = send
    }

    /// Sends each event to `endpoint`, for the app the event belongs to.
    package static func live(
        _ client: InternalClient, _ endpoint: InternalEndpoint<NoParameter, Event, EmptyAnswer>, appID: @escaping @Sendable (Event) -> String
    ) -> EventClient {
        EventClient { event in _ = try await client.call(endpoint, body: event, for: .init(appID: appID(event))) }
    }

    /// The consumer down: every delivery fails as the live client's would, and stays in the outbox.
    package static func failing(_ service: ServiceName) -> EventClient {
        EventClient { _ in throw ServiceError.unavailable(service) }
    }

    /// No event expected: the first one fails the running test.
    package static var unimplemented: EventClient {
        EventClient { _ in throw Unimplemented.call("EventClient<\(Event.self)>.send") }
    }
}
