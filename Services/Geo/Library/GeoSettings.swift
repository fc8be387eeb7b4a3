import Foundation
import ServiceKit

/// geo-svc's own environment variables.
package enum GeoSettings {
    package static let boundaries = ConfigVariable(
        "GEO_BOUNDARIES_FILE", default: "",
        "legal-dong boundary GeoJSON (.geojson.gz) for reverse geocoding; empty = the file geo-svc ships with (NGII legal dongs, 2023-09-15)"
    )

    package static var all: [ConfigVariable] { [boundaries] }

    /// The boundary file in geo-svc's resource bundle (`Resources/`).
    package static var shippedBoundaries: String? {
        Bundle.module.url(forResource: "kr_emd_legal_20230915.geojson", withExtension: "gz", subdirectory: "Resources")?.path
    }
}
