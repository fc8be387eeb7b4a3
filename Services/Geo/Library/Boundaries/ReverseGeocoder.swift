import Logging
import ServiceKit

/// Reverse geocoding, or why it is unavailable: a service whose boundary file is missing or
/// unreadable still runs, and answers 503 for reverse geocoding.
struct ReverseGeocoder: Sendable {
    private let index: RegionIndex?
    private let unavailable: String

    init(index: RegionIndex) {
        (self.index, unavailable) = (index, "")
    }

    init(unavailable reason: String) {
        (index, unavailable) = (nil, reason)
    }

    /// Loads the file once at start (the configured one, else the one shipped in geo-svc's
    /// resource bundle); a missing or unreadable file is logged and leaves reverse geocoding
    /// answering 503.
    static func load(path: String, logger: Logger) -> ReverseGeocoder {
        guard !path.isEmpty else {
            logger.warning("reverse geocoding disabled: no boundary file (\(GeoSettings.boundaries.name) unset and none shipped)")
            return ReverseGeocoder(unavailable: "reverse geocoding is not configured on this server")
        }
        let started = ContinuousClock.now
        do {
            let index = RegionIndex(try BoundaryFile.read(path: path))
            logger.info(
                "boundaries loaded",
                metadata: [
                    "regions": "\(index.regions.count)", "path": "\(path)", "took": "\(ContinuousClock.now - started)",
                ])
            return ReverseGeocoder(index: index)
        } catch {
            logger.error("reverse geocoding disabled: boundary file unreadable", metadata: ["path": "\(path)", "error": "\(error)"])
            return ReverseGeocoder(unavailable: "reverse geocoding is unavailable: boundary data could not be loaded")
        }
    }

    /// The region at the point, nil at sea or abroad; 503 without boundary data.
    func region(at point: Coordinate) throws -> Region? {
        guard let index else { throw ServiceError(.unavailable, unavailable) }
        return index.region(at: point)
    }

    /// The address of the point, `""` where there is none or no data.
    func address(at point: Coordinate) -> String {
        index?.region(at: point).map(RegionRenderer.answer)?.addressName ?? ""
    }
}
