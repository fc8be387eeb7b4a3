import Foundation

/// Douglas-Peucker on a local flat projection (metres east/north of the first point): keeps
/// the fixes that deviate from the simplified line by more than the tolerance.
enum PathSimplifier {
    static func simplify(_ points: [TrackPoint], tolerance: Double = 5) -> [TrackPoint] {
        guard points.count > 2 else { return points }
        let origin = points[0].coordinate
        let metresPerDegree = GreatCircle.earthRadius * .pi / 180
        let east = cos(origin.latitude * .pi / 180) * metresPerDegree
        let flat = points.map {
            (x: ($0.coordinate.longitude - origin.longitude) * east, y: ($0.coordinate.latitude - origin.latitude) * metresPerDegree)
        }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var ranges = [(0, points.count - 1)]
        while let (first, last) = ranges.popLast() {
            guard last - first > 1 else { continue }
            var farthest = first, farthestDistance = 0.0
            for index in first + 1..<last {
                let distance = segmentDistance(flat[index], flat[first], flat[last])
                if distance > farthestDistance { (farthest, farthestDistance) = (index, distance) }
            }
            if farthestDistance > tolerance {
                keep[farthest] = true
                ranges += [(first, farthest), (farthest, last)]
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    private static func segmentDistance(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
        let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
        return (x * x + y * y).squareRoot()
    }
}
