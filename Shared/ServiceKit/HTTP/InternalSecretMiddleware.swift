import Contracts
import HTTPTypes
import Hummingbird

/// Services answer only the gateway and each other: every request must carry the internal
/// secret. The app id the gateway resolved travels in `x-internal-app-id` and is trusted here.
package struct InternalSecretMiddleware: RouterMiddleware {
    package typealias Context = GlintRequestContext
    private let secret: [UInt8]
    private static let secretHeader = HTTPField.Name(InternalHeader.secret)!
    private static let appHeader = HTTPField.Name(InternalHeader.appID)!
    private static let profileHeader = HTTPField.Name(InternalHeader.appProfile)!
    private static let publicBaseHeader = HTTPField.Name(InternalHeader.publicBase)!

    package init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// Also used where no middleware runs (WebSocket upgrades).
    package static func carriesSecret(_ headers: HTTPFields, _ secret: some Collection<UInt8>) -> Bool {
        guard let presented = headers.value(of: secretHeader) else { return false }
        return ConstantTime.equals(presented.utf8, secret)
    }

    package static func appID(in headers: HTTPFields) -> String? { headers.value(of: appHeader) }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.carriesSecret(request.headers, secret) else {
            throw ServiceError(.forbidden, "internal endpoint")
        }
        var context = context
        context.appID = Self.appID(in: request.headers)
        context.appProfile = request.headers.value(of: Self.profileHeader).flatMap(Dialect.init(rawValue:))
        context.publicBase = request.headers.value(of: Self.publicBaseHeader)
        if let appID = context.appID {
            context.logger[metadataKey: "app_id"] = .string(appID)
        }
        return try await next(request, context)
    }
}
