import ServiceKit

/// geo-svc's own environment variables.
package enum GeoSettings {
    package static let boundaries = ConfigVariable(
        "GEO_BOUNDARIES_FILE", default: "",
        "legal-dong boundary GeoJSON (.geojson.gz) for reverse geocoding; empty = reverse geocoding answers 503"
    )

    package static var all: [ConfigVariable] { [boundaries] }
}
