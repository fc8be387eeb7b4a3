/// A walk of API.md §4. Distances in metres, durations in seconds, dates in the §0 format.
public struct WalkAnswer: Codable, Sendable, Equatable {
    public var walkID: String
    public var title: String
    public var postID: String
    public var distanceM: Double
    public var durationS: Int
    public var calories: Double
    public var startedAt: String
    public var endedAt: String
    public var bbox: WalkBoundingBox
    public var path: [WalkPathPoint]
    /// The 법정동 address of the first point; `""` where it has none (at sea, abroad, no data).
    public var startAddress: String
    public var createdAt: String

    public init(
        walkID: String, title: String, postID: String, distanceM: Double, durationS: Int, calories: Double, startedAt: String, endedAt: String,
        bbox: WalkBoundingBox, path: [WalkPathPoint], startAddress: String, createdAt: String
    ) {
        self.walkID = walkID
        self.title = title
        self.postID = postID
        self.distanceM = distanceM
        self.durationS = durationS
        self.calories = calories
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.bbox = bbox
        self.path = path
        self.startAddress = startAddress
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case walkID = "walk_id"
        case title
        case postID = "post_id"
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case calories
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case bbox, path
        case startAddress = "start_address"
        case createdAt = "created_at"
    }
}

public struct WalkBoundingBox: Codable, Sendable, Equatable {
    public var minLatitude: Double
    public var minLongitude: Double
    public var maxLatitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.minLongitude = minLongitude
        self.maxLatitude = maxLatitude
        self.maxLongitude = maxLongitude
    }

    enum CodingKeys: String, CodingKey {
        case minLatitude = "min_latitude"
        case minLongitude = "min_longitude"
        case maxLatitude = "max_latitude"
        case maxLongitude = "max_longitude"
    }
}

public struct WalkPathPoint: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var timestamp: String

    public init(latitude: Double, longitude: Double, timestamp: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
    }
}
