import Contracts
import FileStorage
import Hummingbird
import ServiceClients
import ServiceKit

/// §8's `/users/me` and `/users/{user_id}`, for workspace (`slp`) apps; other apps have §1's
/// profile routes instead, and get an unknown route here.
struct MeRoutes: Sendable {
    let profiles: ProfileService
    let users: any UserStore
    let market: MarketClient

    func register(protected: ServiceApplication.Group) {
        protected.get("/v1/users/me") { _, context -> SlpMe in
            try await me(try context.requireUser(profile: .slp), requestID: context.requestID)
        }
        protected.put("/v1/users/me") { request, context -> SlpMe in
            let caller = try context.requireUser(profile: .slp)
            let body = try await request.decode(as: SlpMeUpdate.self, context: context)
            var update = ProfileUpdate()
            (update.nick, update.phoneNum) = (body.nickname, body.phone)
            try await profiles.update(caller, update, image: nil)
            return try await me(caller, requestID: context.requestID)
        }
        protected.put("/v1/users/me/image") { request, context -> SlpMe in
            let caller = try context.requireUser(profile: .slp)
            guard let image = try await MultipartForm.read(request, limits: .uploads).files(named: "image").first else {
                throw ServiceError.badRequest("image required")
            }
            try await profiles.update(caller, ProfileUpdate(), image: image)
            return try await me(caller, requestID: context.requestID)
        }
        protected.get("/v1/users/{user_id}") { _, context -> SlpUser in
            let caller = try context.requireUser(profile: .slp)
            let id = try context.parameters.require("user_id")
            guard ObjectID.isValid(id), let user = try await users.user(id: id, appID: caller.appID) else {
                throw ServiceError(.userNotFound, "no such user")
            }
            return AccountRenderer.user(user)
        }
    }

    /// The caller with their wallet's coins (market-svc's).
    private func me(_ caller: AuthenticatedUser, requestID: String) async throws -> SlpMe {
        guard let user = try await users.user(id: caller.userID, appID: caller.appID) else { throw ServiceError(.forbidden, "user no longer exists") }
        let coins = try await market.coins(caller.userID, caller.appID, requestID)
        return AccountRenderer.me(user, provider: try await users.provider(of: user), coins: coins)
    }
}
