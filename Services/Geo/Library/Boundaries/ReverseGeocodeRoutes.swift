import Contracts
import Hummingbird
import ServiceKit

/// API.md §4 reverse geocoding: the legal dong at a point, from the boundaries geo-svc loaded.
struct ReverseGeocodeRoutes: Sendable {
    let geocoder: ReverseGeocoder

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/geo/reverse") { request, _ -> ReverseGeocodeAnswer in
            let query = request.uri.queryParameters
            let point = try Coordinate(latitude: query["latitude"], longitude: query["longitude"])
            guard let region = try geocoder.region(at: point) else { throw ServiceError.notFound("no address here (at sea or outside Korea)") }
            return RegionRenderer.answer(region)
        }
    }
}
