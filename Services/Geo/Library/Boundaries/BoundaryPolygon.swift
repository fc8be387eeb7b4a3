/// One polygon of a region (a MultiPolygon gives several), its rings flattened for fast scans.
struct BoundaryPolygon: Sendable {
    let region: Int
    let box: PackedRTree.Box
    /// x (longitude), y (latitude) pairs; every ring closed (first point repeated last).
    private let coordinates: [Double]
    /// Where each ring ends, in points.
    private let ringEnds: [Int]

    /// `rings` as GeoJSON has them: the outer ring, then holes, each `[[lon, lat], ...]`.
    init?(region: Int, rings: [[[Double]]]) {
        var coordinates: [Double] = [], ringEnds: [Int] = []
        for ring in rings where ring.count >= 4 {
            for position in ring where position.count >= 2 { coordinates += [position[0], position[1]] }
            if ring.first != ring.last { coordinates += [ring[0][0], ring[0][1]] }
            ringEnds.append(coordinates.count / 2)
        }
        guard !ringEnds.isEmpty else { return nil }
        var box = PackedRTree.Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for index in stride(from: 0, to: coordinates.count, by: 2) {
            box = box.union(
                PackedRTree.Box(minX: coordinates[index], minY: coordinates[index + 1], maxX: coordinates[index], maxY: coordinates[index + 1]))
        }
        (self.region, self.box, self.coordinates, self.ringEnds) = (region, box, coordinates, ringEnds)
    }

    /// Inside by the even-odd rule over all rings (so holes are outside), or on any edge: the
    /// data's lookup rule is "contains or touches".
    func containsOrTouches(x: Double, y: Double) -> Bool {
        guard box.contains(x: x, y: y) else { return false }
        var inside = false
        var ringStart = 0
        for ringEnd in ringEnds {
            for index in ringStart + 1..<ringEnd {
                let x1 = coordinates[2 * index - 2], y1 = coordinates[2 * index - 1]
                let x2 = coordinates[2 * index], y2 = coordinates[2 * index + 1]
                if min(y1, y2) <= y, y <= max(y1, y2), min(x1, x2) <= x, x <= max(x1, x2),
                    (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) == 0
                {
                    return true
                }
                if (y1 > y) != (y2 > y), x < (x2 - x1) * (y - y1) / (y2 - y1) + x1 {
                    inside.toggle()
                }
            }
            ringStart = ringEnd
        }
        return inside
    }
}
