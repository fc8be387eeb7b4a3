import Foundation
import ZlibCoding

/// The GeoJSON FeatureCollection of legal-dong boundaries (`Resources/README.md`), read
/// with only what the lookup needs.
struct BoundaryFile: Decodable {
    struct Feature: Decodable {
        var properties: Properties
        var geometry: Geometry
    }

    struct Properties: Decodable {
        var code: String
        var sido: String
        var sigungu: String
        var dong: String

        enum CodingKeys: String, CodingKey {
            case code = "emd_cd"
            case sido = "sido_nm"
            case sigungu = "sgg_nm"
            case dong = "emd_nm"
        }
    }

    /// Polygon or MultiPolygon, as a list of polygons (each a list of rings).
    struct Geometry: Decodable {
        var polygons: [[[[Double]]]]

        enum CodingKeys: String, CodingKey { case type, coordinates }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "Polygon": polygons = [try container.decode([[[Double]]].self, forKey: .coordinates)]
            case "MultiPolygon": polygons = try container.decode([[[[Double]]]].self, forKey: .coordinates)
            case let other:
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unsupported geometry \(other)")
            }
        }
    }

    var features: [Feature]

    /// Reads a `.geojson.gz` (or plain `.geojson`) file.
    static func read(path: String) throws -> BoundaryFile {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if Gzip.isCompressed(data) { data = try Gzip.decompress(data) }
        return try JSONDecoder().decode(BoundaryFile.self, from: data)
    }
}
