/// `POST /v1/walks` (API.md §4).
public struct WalkRequest: Codable, Sendable {
    public var points: [WalkPointInput]
    public var title: String?
    public var postID: String?

    public init(points: [WalkPointInput], title: String? = nil, postID: String? = nil) {
        self.points = points
        self.title = title
        self.postID = postID
    }

    enum CodingKeys: String, CodingKey {
        case points, title
        case postID = "post_id"
    }
}

/// A recorded GPS fix. `timestamp` is what the apps send: epoch seconds or milliseconds as a
/// number, or a date string (ISO 8601, with or without fractional seconds).
public struct WalkPointInput: Codable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var timestamp: Timestamp

    public init(latitude: Double, longitude: Double, timestamp: Timestamp) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
    }

    public enum Timestamp: Codable, Sendable, Equatable {
        case number(Double)
        case text(String)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            }
        }
    }
}
