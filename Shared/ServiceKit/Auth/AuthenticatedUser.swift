import Foundation

/// The caller as proven by a verified access token.
public struct AuthenticatedUser: Sendable, Equatable {
    public var userID: String
    public var appID: String
    public var sessionID: String
    public var expiresAt: Date

    public init(userID: String, appID: String, sessionID: String, expiresAt: Date) {
        self.userID = userID
        self.appID = appID
        self.sessionID = sessionID
        self.expiresAt = expiresAt
    }
}
