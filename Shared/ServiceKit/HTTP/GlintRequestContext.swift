import Contracts
import Hummingbird
import NIOCore

/// The request context of every process: who is calling (app, user), the request id, and where
/// the connection comes from.
public struct GlintRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// Set by `RequestIDMiddleware`; propagated on every internal call.
    public var requestID: String = ""
    /// The caller's app, vouched for by the gateway through the internal headers.
    public var appID: String?
    /// The caller, once an access token has been verified.
    public var user: AuthenticatedUser?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    public var responseEncoder: JSONResponseEncoder { JSONResponseEncoder() }

    /// JSON bodies are small; file uploads stream through `MultipartUpload`, not this limit.
    public var maxUploadSize: Int { 1 << 20 }

    /// The authenticated caller, or 401.
    public func requireUser() throws -> AuthenticatedUser {
        guard let user else { throw ServiceError(.tokenInvalid, "access token required") }
        return user
    }

    /// The calling app, or 420 (only reachable when a request bypassed the gateway's key check).
    public func requireAppID() throws -> String {
        guard let appID else { throw ServiceError(.appKeyInvalid, "app key required") }
        return appID
    }
}
