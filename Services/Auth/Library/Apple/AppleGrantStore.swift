import Foundation

/// Each user's Apple refresh token, sealed: kept to revoke it at Apple when the account goes.
protocol AppleGrantStore: Sendable {
    func save(userID: String, appID: String, sealedRefreshToken: Data, at time: Int64) async throws
}
