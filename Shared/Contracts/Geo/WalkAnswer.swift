/// A walk of API.md §4. Distances in metres, durations in seconds, dates in the §0 format.
package struct WalkAnswer: Codable, Sendable, Equatable {
    package var walkID: String
    package var title: String
    package var postID: String
    package var distanceM: Double
    package var durationS: Int
    package var calories: Double
    package var startedAt: String
    package var endedAt: String
    package var bbox: WalkBoundingBox
    package var path: [WalkPathPoint]
    /// The 법정동 address of the first point; `""` where it has none (at sea, abroad, no data).
    package var startAddress: String
    package var createdAt: String

    package init(
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

package struct WalkBoundingBox: Codable, Sendable, Equatable {
    package var minLatitude: Double
    package var minLongitude: Double
    package var maxLatitude: Double
    package var maxLongitude: Double

    package init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
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

package struct WalkPathPoint: Codable, Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double
    package var timestamp: String

    package init(latitude: Double, longitude: Double, timestamp: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
    }
}
