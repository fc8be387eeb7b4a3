import Contracts
import ServiceKit

/// What the gateway asks auth-svc: the app of a `SeSACKey`, or the app mounted at a path prefix
/// (nil for none).
struct AppKeysClient: Sendable {
    var resolve: @Sendable (_ key: String) async throws -> AppInfo?
    var mount: @Sendable (_ mount: String) async throws -> AppInfo?

    init(
        resolve: @escaping @Sendable (_ key: String) async throws -> AppInfo?,
        mount: @escaping @Sendable (_ mount: String) async throws -> AppInfo? = { _ in nil }
    ) {
        self.resolve = resolve
        self.mount = mount
    }

    static func live(_ client: InternalClient) -> AppKeysClient {
        AppKeysClient(
            resolve: { key in try await answer { try await client.call(InternalEndpoints.Auth.resolveApp, body: AppKeyLookup(key: key)) } },
            mount: { mount in try await answer { try await client.call(InternalEndpoints.Auth.resolveMount, body: AppMountLookup(mount: mount)) } }
        )
    }

    /// auth-svc's "no such app" is an answer, not a failure.
    private static func answer(_ call: () async throws -> AppInfo) async throws -> AppInfo? {
        do {
            return try await call()
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    static let failing = AppKeysClient(resolve: { _ in throw ServiceError.unavailable(.auth) }, mount: { _ in throw ServiceError.unavailable(.auth) })

    /// No call expected: the first one fails the running test.
    static let unimplemented = AppKeysClient(
        resolve: { _ in throw Unimplemented.call("AppKeysClient.resolve") }, mount: { _ in throw Unimplemented.call("AppKeysClient.mount") }
    )
}
