/// Point-in-polygon over the legal-dong boundaries, with an R-tree over the polygons' boxes.
struct RegionIndex: Sendable {
    let regions: [Region]
    private let polygons: [BoundaryPolygon]
    private let tree: PackedRTree

    init(_ file: BoundaryFile) {
        var regions: [Region] = [], polygons: [BoundaryPolygon] = []
        for feature in file.features {
            let properties = feature.properties
            regions.append(Region(code: properties.code, sido: properties.sido, sigungu: properties.sigungu, dong: properties.dong))
            polygons += feature.geometry.polygons.compactMap { BoundaryPolygon(region: regions.count - 1, rings: $0) }
        }
        (self.regions, self.polygons, self.tree) = (regions, polygons, PackedRTree(polygons.map(\.box)))
    }

    /// The region containing or touching the point; where several do, the smallest code wins
    /// (the data's own rule). Nil at sea and abroad.
    func region(at point: Coordinate) -> Region? {
        var best: Int?
        tree.search(x: point.longitude, y: point.latitude) { index in
            let polygon = polygons[index]
            if best.map({ regions[polygon.region].code < regions[$0].code }) ?? true,
                polygon.containsOrTouches(x: point.longitude, y: point.latitude)
            {
                best = polygon.region
            }
        }
        return best.map { regions[$0] }
    }
}
