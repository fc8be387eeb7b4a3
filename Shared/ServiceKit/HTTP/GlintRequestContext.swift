import Contracts
import Hummingbird
import NIOCore

/// The request context of every process: who is calling (app, user), the request id, and where
/// the connection comes from.
package struct GlintRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    /// Set by `RequestIDMiddleware`; propagated on every internal call.
    package var requestID: String = ""
    /// The caller's app, vouched for by the gateway through the internal headers.
    package var appID: String?
    /// Its profile: the family of answer shapes it speaks (errors are the gateway's business).
    package var appProfile: Dialect?
    /// Where a mounted app's clients reach it (`https://host/quotehub`), for absolute file URLs.
    package var publicBase: String?
    /// The caller, once an access token has been verified.
    package var user: AuthenticatedUser?

    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    package var responseEncoder: JSONResponseEncoder { JSONResponseEncoder() }
    package var requestDecoder: GlintRequestDecoder { GlintRequestDecoder() }

    /// JSON bodies are small; file uploads stream through `MultipartUpload`, not this limit.
    package var maxUploadSize: Int { 1 << 20 }

    /// The authenticated caller, or 401.
    package func requireUser() throws -> AuthenticatedUser {
        guard let user else { throw ServiceError(.tokenInvalid, "access token required") }
        return user
    }

    /// The authenticated caller of an app of `profile`; apps of other profiles have other routes
    /// (API.md §8 is for `slp` apps only), so for them this route does not exist.
    package func requireUser(profile: Dialect) throws -> AuthenticatedUser {
        guard appProfile == profile else { throw ServiceError(.unknownRoute, "unknown route") }
        return try requireUser()
    }

    /// The calling app if it is of `profile` (guest routes of one family); otherwise no such route.
    package func requireAppID(profile: Dialect) throws -> String {
        guard appProfile == profile else { throw ServiceError(.unknownRoute, "unknown route") }
        return try requireAppID()
    }

    /// The calling app, or 420 (only reachable when a request bypassed the gateway's key check).
    package func requireAppID() throws -> String {
        guard let appID else { throw ServiceError(.appKeyInvalid, "app key required") }
        return appID
    }
}
