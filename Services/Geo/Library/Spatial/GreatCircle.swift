import Foundation

/// Distances on the sphere (haversine, mean Earth radius) and the latitude/longitude boxes that
/// surely contain every point within a radius, for index prefilters.
enum GreatCircle {
    static let earthRadius = 6_371_008.8

    static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let phi1 = a.latitude * .pi / 180, phi2 = b.latitude * .pi / 180
        let dPhi = phi2 - phi1, dLambda = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// One box, or two where the circle crosses the antimeridian. Widened by a millionth of a
    /// degree so rounding never drops a point on the circle.
    static func boxes(around center: Coordinate, radius: Double) -> [CoordinateBox] {
        let margin = 1e-6
        let dLat = radius / earthRadius * 180 / .pi + margin
        let minLat = max(-90, center.latitude - dLat), maxLat = min(90, center.latitude + dLat)
        // The widest longitude span is at the box edge nearest a pole.
        let widest = max(abs(minLat), abs(maxLat))
        guard widest < 89.9 else { return [CoordinateBox(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: 180)] }
        let dLon = min(180, asin(min(1, sin(radius / earthRadius) / cos(widest * .pi / 180))) * 180 / .pi + margin)
        let west = center.longitude - dLon, east = center.longitude + dLon
        if west < -180 {
            return [
                CoordinateBox(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: east),
                CoordinateBox(minLatitude: minLat, minLongitude: west + 360, maxLatitude: maxLat, maxLongitude: 180),
            ]
        }
        if east > 180 {
            return [
                CoordinateBox(minLatitude: minLat, minLongitude: west, maxLatitude: maxLat, maxLongitude: 180),
                CoordinateBox(minLatitude: minLat, minLongitude: -180, maxLatitude: maxLat, maxLongitude: east - 360),
            ]
        }
        return [CoordinateBox(minLatitude: minLat, minLongitude: west, maxLatitude: maxLat, maxLongitude: east)]
    }
}

struct CoordinateBox: Sendable, Equatable {
    var minLatitude: Double
    var minLongitude: Double
    var maxLatitude: Double
    var maxLongitude: Double
}
