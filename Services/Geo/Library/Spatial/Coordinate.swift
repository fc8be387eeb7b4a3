import ServiceKit

/// A WGS84 position, always in range.
struct Coordinate: Sendable, Equatable {
    var latitude: Double
    var longitude: Double

    init(latitude: Double, longitude: Double) throws {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw ServiceError.badRequest("latitude must be within -90...90 and longitude within -180...180")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// From the query strings the apps send (`"37.5665"`); missing or non-numeric is 400.
    init(latitude: Substring?, longitude: Substring?) throws {
        guard let latitude = Self.decimal(latitude), let longitude = Self.decimal(longitude) else {
            throw ServiceError.badRequest("latitude and longitude must be decimal numbers")
        }
        try self.init(latitude: latitude, longitude: longitude)
    }

    /// A plain decimal (`"500"`, `"-12.5"`, `"1e3"`): `Double(_:)` alone would also take `"nan"`,
    /// `"inf"` and hexadecimal.
    static func decimal(_ text: Substring?) -> Double? {
        guard let text, (1...32).contains(text.utf8.count), text.utf8.allSatisfy({ Self.decimalBytes.contains($0) }) else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private static let decimalBytes = Set("0123456789+-.eE".utf8)
}
