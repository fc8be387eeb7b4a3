import Hummingbird
import ServiceKit

/// In auth-svc a logged-out or revoked session fails at once (other services accept a token
/// until it expires); a deleted user's token is 403.
struct SessionCheckMiddleware: RouterMiddleware {
    typealias Context = GlintRequestContext
    let sessions: any AccountStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let user = try context.requireUser()
        switch try await sessions.state(sessionID: user.sessionID, userID: user.userID) {
        case .active: return try await next(request, context)
        case .revoked: throw ServiceError(.tokenInvalid, "session ended")
        case .userGone: throw ServiceError(.forbidden, "user no longer exists")
        }
    }
}
