/// An app (API key) as resolved by auth-svc for the gateway and other services.
public struct AppInfo: Codable, Sendable, Equatable {
    public var appID: String
    public var name: String
    public var profile: Dialect
    public var flags: AppFlags

    public init(appID: String, name: String, profile: Dialect, flags: AppFlags) {
        self.appID = appID
        self.name = name
        self.profile = profile
        self.flags = flags
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case name, profile, flags
    }
}

/// Per-app compatibility switches for released clients (API.md §0); all off by default.
public struct AppFlags: Codable, Sendable, Equatable {
    public var refreshWithAccessTokenOnly: Bool
    public var emptyAuthErrorBodies: Bool
    public var socketAuthOptional: Bool

    public init(refreshWithAccessTokenOnly: Bool = false, emptyAuthErrorBodies: Bool = false, socketAuthOptional: Bool = false) {
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
