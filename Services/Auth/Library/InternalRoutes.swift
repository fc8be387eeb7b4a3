import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// Endpoints other processes call (behind the internal secret like everything but health).
struct InternalRoutes: Sendable {
    let apps: AppRepository
    let signingKey: SigningKey
    private static let appKeyHeader = HTTPField.Name("x-internal-app-key")!

    func register(on group: ServiceApplication.Group) {
        group.get("/.well-known/jwks.json") { _, _ in JSONCoding.response(body: signingKey.jwks) }
        group.get("/internal/apps/resolve") { request, _ -> AppInfo in
            guard let key = request.headers[Self.appKeyHeader], !key.isEmpty else {
                throw ServiceError.badRequest("x-internal-app-key required")
            }
            guard let app = try await apps.find(key: key) else { throw ServiceError.notFound("unknown app key") }
            return app.info
        }
    }
}

extension AppInfo: ResponseEncodable {}
