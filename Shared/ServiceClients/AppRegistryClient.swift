import Contracts
import ServiceKit

/// auth-svc's app registry as admin-svc manages it (issue 36): settings, registration, key
/// rotation with a grace, disabling. Tests start from `unimplemented`.
package struct AppRegistryClient: Sendable {
    package var details: @Sendable (_ requestID: String) async throws -> [AppDetail]
    package var create: @Sendable (_ registration: AppRegistration, _ requestID: String) async throws -> AppKeyIssued
    package var change: @Sendable (_ appID: String, _ change: AppSettingsChange, _ requestID: String) async throws -> AppDetail
    package var rotateKey: @Sendable (_ appID: String, _ rotation: KeyRotation, _ requestID: String) async throws -> AppKeyIssued
    package var disable: @Sendable (_ appID: String, _ disabling: AppDisabling, _ requestID: String) async throws -> AppDetail

    package static func live(_ client: InternalClient) -> AppRegistryClient {
        AppRegistryClient(
            details: { requestID in try await client.call(InternalEndpoints.Auth.appDetails, for: .init(requestID: requestID)) },
            create: { registration, requestID in
                try await client.call(InternalEndpoints.Auth.createApp, body: registration, for: .init(requestID: requestID))
            },
            change: { appID, change, requestID in
                try await client.call(InternalEndpoints.Auth.changeApp, appID, body: change, for: .init(requestID: requestID))
            },
            rotateKey: { appID, rotation, requestID in
                try await client.call(InternalEndpoints.Auth.rotateAppKey, appID, body: rotation, for: .init(requestID: requestID))
            },
            disable: { appID, disabling, requestID in
                try await client.call(InternalEndpoints.Auth.disableApp, appID, body: disabling, for: .init(requestID: requestID))
            })
    }

    /// No call expected: the first one fails the running test.
    package static var unimplemented: AppRegistryClient {
        AppRegistryClient(
            details: { _ in throw Unimplemented.call("AppRegistryClient.details") },
            create: { _, _ in throw Unimplemented.call("AppRegistryClient.create") },
            change: { _, _, _ in throw Unimplemented.call("AppRegistryClient.change") },
            rotateKey: { _, _, _ in throw Unimplemented.call("AppRegistryClient.rotateKey") },
            disable: { _, _, _ in throw Unimplemented.call("AppRegistryClient.disable") })
    }
}
