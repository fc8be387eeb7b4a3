import Contracts
import Hummingbird
import HummingbirdCore
import ServiceKit

/// `GET /v1/posts/geolocation`'s query (API.md §4).
struct NearbyQuery: Sendable {
    enum Order: String, Sendable {
        case distance
        case createdAt

        /// Ties fall back to the other key, then the post id, so pages are stable.
        func sorted(_ posts: [NearbyPost], ascending: Bool) -> [NearbyPost] {
            posts.sorted { a, b in
                let less: Bool
                switch self {
                case .distance: less = (a.distance, a.createdAt, a.postID) < (b.distance, b.createdAt, b.postID)
                case .createdAt: less = (a.createdAt, a.distance, a.postID) < (b.createdAt, b.distance, b.postID)
                }
                let greater: Bool
                switch self {
                case .distance: greater = (b.distance, b.createdAt, b.postID) < (a.distance, a.createdAt, a.postID)
                case .createdAt: greater = (b.createdAt, b.distance, b.postID) < (a.createdAt, a.distance, a.postID)
                }
                return ascending ? less : greater
            }
        }
    }

    static let defaultRadius = 500.0
    static let maxRadius = 20_000.0

    var center: Coordinate
    var radius: Double
    var appID: String
    var categories: [String]
    var order: Order
    var ascending: Bool
    var limit: Int

    init(
        center: Coordinate, radius: Double = defaultRadius, appID: String, categories: [String] = [], order: Order = .distance,
        ascending: Bool = true, limit: Int = 100
    ) {
        (self.center, self.radius, self.appID, self.categories) = (center, radius, appID, categories)
        (self.order, self.ascending, self.limit) = (order, ascending, limit)
    }

    /// `maxDistance` missing or `"0"` is the default 500 m; above 20 km it is 20 km (released apps
    /// offer 5 km at most, so a larger value is a client slip, not worth a failure). Nearest
    /// first unless `order_by=createdAt`, which is newest first; `sort_by` turns either.
    /// `limit` (default 100, at most 500) bounds how many posts are rendered.
    init(_ parameters: FlatDictionary<Substring, Substring>, appID: String) throws {
        let center = try Coordinate(latitude: parameters["latitude"], longitude: parameters["longitude"])
        var radius = Self.defaultRadius
        if let text = parameters["maxDistance"], !text.isEmpty {
            guard let value = Coordinate.decimal(text), value >= 0 else { throw ServiceError.badRequest("maxDistance must be a number of metres") }
            if value > 0 { radius = min(value, Self.maxRadius) }
        }
        let categories = parameters.getAll("category").map { String($0) }.filter { !$0.isEmpty }
        guard categories.count <= 20, categories.allSatisfy({ $0.count <= 100 }) else {
            throw ServiceError.badRequest("at most 20 categories of 100 characters")
        }
        let order: Order
        switch parameters["order_by"].map(String.init) ?? "" {
        case "", "distance": order = .distance
        case "createdAt", "created_at": order = .createdAt
        default: throw ServiceError.badRequest("order_by must be distance or createdAt")
        }
        let ascending: Bool
        switch parameters["sort_by"].map(String.init) ?? "" {
        case "": ascending = order == .distance
        case "asc": ascending = true
        case "desc": ascending = false
        default: throw ServiceError.badRequest("sort_by must be asc or desc")
        }
        self.init(
            center: center, radius: radius, appID: appID, categories: categories, order: order, ascending: ascending,
            limit: try PageLimit.parse(parameters["limit"].map(String.init), default: 100, max: PostBatchRequest.maxCount))
    }
}
