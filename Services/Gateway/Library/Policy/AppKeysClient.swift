import Contracts
import ServiceKit

/// What the gateway asks auth-svc: the app of a `SeSACKey` (nil for no such key).
struct AppKeysClient: Sendable {
    var resolve: @Sendable (_ key: String) async throws -> AppInfo?

    static func live(_ client: InternalClient) -> AppKeysClient {
        AppKeysClient { key in
            do {
                return try await client.call(InternalEndpoints.Auth.resolveApp, body: AppKeyLookup(key: key))
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
        }
    }

    static let failing = AppKeysClient { _ in throw ServiceError.unavailable(.auth) }
}
