import Contracts
import ServiceKit

/// What market-svc tells geo-svc (from its outbox): a post's findable location changed.
struct GeoClient: Sendable {
    /// geo-svc applies it idempotently by post id.
    var postLocationChanged: @Sendable (PostLocationEvent) async throws -> Void

    static func live(_ client: InternalClient) -> GeoClient {
        GeoClient { event in
            _ = try await client.call(InternalEndpoints.Geo.postLocation, body: event, for: .init(appID: event.appID))
        }
    }

    static let failing = GeoClient { _ in throw ServiceError.unavailable(.geo) }
}
