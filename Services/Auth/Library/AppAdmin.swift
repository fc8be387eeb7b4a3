import Contracts
import Foundation

/// What the `apps` command does, kept out of the executable so tests can drive it.
package struct AppAdmin: Sendable {
    let repository: AppRepository

    /// Registers an app and answers one line naming its key.
    package func create(
        name: String, profile: Dialect, flags: AppFlags, key: String?, appleClientIDs: [String] = [], kakaoAppID: String = ""
    ) async throws -> String {
        let app = try await repository.create(
            name: name, profile: profile, flags: flags, key: key, appleClientIDs: appleClientIDs, kakaoAppID: kakaoAppID
        )
        return "created app \(app.name) (\(app.id)) profile \(app.profile.rawValue) SeSACKey: \(app.apiKey)"
    }

    /// One line per app: id, name, profile, flags that are on, key.
    package func list() async throws -> [String] {
        try await repository.all().map { app in
            let flags = [
                app.refreshWithAccessTokenOnly ? "refresh_with_access_token_only" : nil,
                app.emptyAuthErrorBodies ? "empty_auth_error_bodies" : nil,
                app.socketAuthOptional ? "socket_auth_optional" : nil,
            ].compactMap { $0 }
            return "\(app.id)  \(app.name)  \(app.profile.rawValue)  [\(flags.joined(separator: ","))]  \(app.apiKey)"
        }
    }
}
