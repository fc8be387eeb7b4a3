import ServiceKit

/// geo-svc's own environment variables.
public enum GeoSettings {
    public static let boundaries = ConfigVariable(
        "GEO_BOUNDARIES_FILE", default: "",
        "legal-dong boundary GeoJSON (.geojson.gz) for reverse geocoding; empty = reverse geocoding answers 503"
    )

    public static var all: [ConfigVariable] { [boundaries] }
}
