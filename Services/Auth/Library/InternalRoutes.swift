import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// Endpoints other processes call (behind the internal secret like everything but health).
struct InternalRoutes: Sendable {
    let apps: AppRepository
    let users: UserRepository
    let profiles: ProfileService
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
        // chat-svc judges sockets that came without a key by the app of the room they ask for.
        group.get("/internal/apps/{app_id}") { _, context -> AppInfo in
            guard let app = try await apps.find(id: try context.parameters.require("app_id")) else { throw ServiceError.notFound("unknown app") }
            return app.info
        }
        // Batch user rendering for creator/sender fields: one call per page, not per row.
        group.post("/internal/users/lookup") { request, context -> UserLookupAnswer in
            let body = try await request.decode(as: UserLookupRequest.self, context: context)
            guard body.userIDs.count <= 500 else { throw ServiceError.badRequest("at most 500 user ids") }
            let ids = Array(Set(body.userIDs.filter { ObjectID.isValid($0) }))
            return UserLookupAnswer(users: try await users.lookup(ids: ids, appID: try context.requireAppID()).map(\.infoFull))
        }
        group.get("/internal/users/{user_id}/blocked") { _, context -> UserIDList in
            UserIDList(userIDs: try await profiles.blockedUsers(of: try context.parameters.require("user_id")))
        }
    }
}
