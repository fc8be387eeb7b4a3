import Contracts
import ServiceKit

/// DogWalk's recorded walks (API.md §4): measured once when posted, read by their owner only.
struct WalkService: Sendable {
    let store: any WalkStore
    let geocoder: ReverseGeocoder

    // 10,000 fixes (nearly three hours at one a second) fit the 1 MB JSON body limit.
    static let maxPoints = 10_000
    static let maxTitle = 100

    func create(_ caller: AuthenticatedUser, _ request: WalkRequest) async throws -> WalkAnswer {
        guard (2...Self.maxPoints).contains(request.points.count) else {
            throw ServiceError.badRequest("a walk needs 2 to \(Self.maxPoints) points")
        }
        let title = request.title ?? ""
        guard title.count <= Self.maxTitle else { throw ServiceError.badRequest("title must be at most \(Self.maxTitle) characters") }
        let postID = request.postID ?? ""
        guard postID.isEmpty || ObjectID.isValid(postID) else { throw ServiceError.badRequest("invalid post_id") }
        let now = GlintDate.nowMilliseconds()
        let points = try request.points.map { try TrackPoint($0, now: now) }
        guard zip(points, points.dropFirst()).allSatisfy({ $0.time <= $1.time }) else {
            throw ServiceError.badRequest("points must be in time order")
        }
        let metrics = WalkMetrics(points)
        let path = PathSimplifier.simplify(metrics.kept)
        let latitudes = metrics.kept.map(\.coordinate.latitude), longitudes = metrics.kept.map(\.coordinate.longitude)
        let record = WalkRecord(
            id: ObjectID.generate(), appID: caller.appID, userID: caller.userID, title: title, postID: postID,
            distanceM: (metrics.distance * 10).rounded() / 10, durationS: Int(((points.last!.time - points[0].time) / 1000)),
            calories: (metrics.calories * 10).rounded() / 10, startedAt: points[0].time, endedAt: points.last!.time,
            minLatitude: latitudes.min()!, minLongitude: longitudes.min()!, maxLatitude: latitudes.max()!, maxLongitude: longitudes.max()!,
            path: JSONText.encode(path.map { [$0.coordinate.latitude, $0.coordinate.longitude, Double($0.time)] }),
            startAddress: geocoder.address(at: points[0].coordinate), createdAt: now
        )
        try await store.insert(record)
        return try WalkRenderer.walk(record)
    }

    func walk(_ id: String, caller: AuthenticatedUser) async throws -> WalkAnswer {
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid walk id") }
        guard let record = try await store.walk(id: id, appID: caller.appID) else { throw ServiceError.notFound("no such walk") }
        guard record.userID == caller.userID else { throw ServiceError(.notPermitted, "not your walk") }
        return try WalkRenderer.walk(record)
    }

    /// The caller's walks, newest first (creation time, then insertion order); `next` is the
    /// last walk id of the previous page.
    func walks(caller: AuthenticatedUser, next: String?, limit: Int) async throws -> CursorPage<WalkAnswer> {
        let after = next ?? ""
        guard after.isEmpty || ObjectID.isValid(after) else { throw ServiceError.badRequest("invalid next cursor") }
        let records = try await store.walks(of: caller.userID, appID: caller.appID, after: after, limit: limit + 1)
        let page = records.prefix(limit)
        return CursorPage(data: try page.map(WalkRenderer.walk), nextCursor: records.count > limit ? page.last!.id : "0")
    }
}
