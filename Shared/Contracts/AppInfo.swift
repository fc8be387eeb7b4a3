/// An app (API key) as resolved by auth-svc for the gateway and other services.
package struct AppInfo: Codable, Sendable, Equatable {
    package var appID: String
    package var name: String
    package var profile: Dialect
    package var flags: AppFlags
    /// The path prefix (without slashes) that names this app instead of a key (API.md §9), if any.
    package var mount: String?

    package init(appID: String, name: String, profile: Dialect, flags: AppFlags, mount: String? = nil) {
        self.appID = appID
        self.name = name
        self.profile = profile
        self.flags = flags
        self.mount = mount
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case name, profile, flags, mount
    }
}

/// Per-app compatibility switches for released clients (API.md §0); all off by default.
package struct AppFlags: Codable, Sendable, Equatable {
    package var refreshWithAccessTokenOnly: Bool
    package var emptyAuthErrorBodies: Bool
    package var socketAuthOptional: Bool

    package init(refreshWithAccessTokenOnly: Bool = false, emptyAuthErrorBodies: Bool = false, socketAuthOptional: Bool = false) {
        self.refreshWithAccessTokenOnly = refreshWithAccessTokenOnly
        self.emptyAuthErrorBodies = emptyAuthErrorBodies
        self.socketAuthOptional = socketAuthOptional
    }

    enum CodingKeys: String, CodingKey {
        case refreshWithAccessTokenOnly = "refresh_with_access_token_only"
        case emptyAuthErrorBodies = "empty_auth_error_bodies"
        case socketAuthOptional = "socket_auth_optional"
    }
}
