import Contracts
import Foundation
import ServiceKit

/// What the `apps` command does, kept out of the executable so tests can drive it.
package struct AppAdmin: Sendable {
    let apps: AppService

    /// Registers an app and answers one line naming its key. Refusals are `ServiceError`s, as
    /// over HTTP (the command prints their message).
    package func create(
        name: String, profile: Dialect, flags: AppFlags, key: String?, appleClientIDs: [String] = [], kakaoAppID: String = "", mount: String? = nil,
        appleKey: AppleSignInKey? = nil
    ) async throws -> String {
        let app: AppRecord
        do {
            app = try await apps.create(
                name: name, profile: profile, flags: flags, key: key, appleClientIDs: appleClientIDs, kakaoAppID: kakaoAppID,
                mount: mount, appleKey: appleKey)
        } catch let error as StoreError {
            throw ServiceError(error)
        }
        let served = app.mount.map { " mounted at /\($0)/ (no key needed there)" } ?? ""
        return "created app \(app.name) (\(app.id)) profile \(app.profile.rawValue)\(served) SeSACKey: \(app.apiKey)"
    }

    /// One line per app: id, name, profile, flags that are on, key.
    package func list() async throws -> [String] {
        try await apps.all().map { app in
            let flags = [
                app.refreshWithAccessTokenOnly ? "refresh_with_access_token_only" : nil,
                app.emptyAuthErrorBodies ? "empty_auth_error_bodies" : nil,
                app.socketAuthOptional ? "socket_auth_optional" : nil,
            ].compactMap { $0 }
            return "\(app.id)  \(app.name)  \(app.profile.rawValue)  [\(flags.joined(separator: ","))]  \(app.apiKey)"
                + (app.mount.map { "  /\($0)/" } ?? "")
        }
    }
}
