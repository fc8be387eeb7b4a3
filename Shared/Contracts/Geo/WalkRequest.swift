/// `POST /v1/walks` (API.md §4).
package struct WalkRequest: Codable, Sendable {
    package var points: [WalkPointInput]
    package var title: String?
    package var postID: String?

    package init(points: [WalkPointInput], title: String? = nil, postID: String? = nil) {
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
package struct WalkPointInput: Codable, Sendable {
    package var latitude: Double
    package var longitude: Double
    package var timestamp: Timestamp

    package init(latitude: Double, longitude: Double, timestamp: Timestamp) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
    }

    package enum Timestamp: Codable, Sendable, Equatable {
        case number(Double)
        case text(String)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            }
        }
    }
}
