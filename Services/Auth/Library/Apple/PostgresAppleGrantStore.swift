import Foundation
import PostgresStorage
import ServiceKit

/// `AppleGrantStore` on PostgreSQL (`apple_grant`, removed with its user).
struct PostgresAppleGrantStore: AppleGrantStore {
    let pool: PostgresPool

    func save(userID: String, appID: String, sealedRefreshToken: Data, at time: Int64) async throws {
        try await pool.transaction { connection in
            _ = try await connection.query(
                """
                INSERT INTO apple_grant (user_id, app_id, sealed_refresh_token, updated_at) VALUES (\(userID), \(appID), \(sealedRefreshToken), \(time))
                ON CONFLICT (user_id) DO UPDATE SET sealed_refresh_token = excluded.sealed_refresh_token, updated_at = excluded.updated_at
                """, logger: pool.logger)
        }
    }
}
