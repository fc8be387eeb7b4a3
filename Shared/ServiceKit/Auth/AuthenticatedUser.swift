import Foundation

/// The caller as proven by a verified access token.
package struct AuthenticatedUser: Sendable, Equatable {
    package var userID: String
    package var appID: String
    package var sessionID: String
    package var expiresAt: Date
    /// When the token was issued (whole seconds): a sign-out everywhere refuses older ones.
    package var issuedAt: Date

    package init(userID: String, appID: String, sessionID: String, expiresAt: Date, issuedAt: Date = .distantPast) {
        self.userID = userID
        self.appID = appID
        self.sessionID = sessionID
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
    }
}
