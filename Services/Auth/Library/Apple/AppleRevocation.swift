import Foundation

/// A revoked account's Apple grant, to be revoked at Apple (auth-svc's outbox): the refresh
/// token travels sealed, as it was stored, so the outbox holds no readable secret.
struct AppleRevocation: Codable, Sendable {
    static let topic = "auth.apple-revoke"
    var appID: String
    var userID: String
    var sealedRefreshToken: Data
}
