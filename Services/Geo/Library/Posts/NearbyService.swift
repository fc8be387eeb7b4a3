import Contracts
import ServiceKit

/// Located posts: kept in step with market-svc's location events, searched by radius.
struct NearbyService: Sendable {
    let store: any LocationStore

    /// Applies one event unless a newer one of the post was applied; applying it again changes
    /// nothing (market-svc delivers each event ahead of its outbox, and the outbox again).
    func apply(_ event: PostLocationEvent) async throws {
        guard ObjectID.isValid(event.postID), !event.appID.isEmpty, event.appID.count <= 64, event.category.count <= 200 else {
            throw ServiceError.badRequest("invalid location event")
        }
        let change = LocationChange(
            postID: event.postID, appID: event.appID, category: event.category, createdAt: event.createdAt, version: event.version)
        guard !event.removed, let latitude = event.latitude, let longitude = event.longitude else {
            return try await store.remove(change)
        }
        try await store.upsert(change, at: try Coordinate(latitude: latitude, longitude: longitude))
    }

    /// The app's posts within the radius, ordered and cut to the query's limit.
    func search(_ query: NearbyQuery) async throws -> [NearbyPost] {
        let candidates = try await store.posts(
            in: GreatCircle.boxes(around: query.center, radius: query.radius), appID: query.appID,
            categories: query.categories)
        let within = candidates.map {
            NearbyPost(postID: $0.postID, distance: GreatCircle.distance(query.center, $0.location), createdAt: $0.createdAt)
        }
        .filter { $0.distance <= query.radius }
        return Array(query.order.sorted(within, ascending: query.ascending).prefix(query.limit))
    }
}

/// A post found near a point: metres away, and when it was created (for date order).
struct NearbyPost: Sendable, Equatable {
    var postID: String
    var distance: Double
    var createdAt: Int64
}
