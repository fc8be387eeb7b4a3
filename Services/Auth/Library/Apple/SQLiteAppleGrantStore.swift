import Foundation
import GRDB

/// `AppleGrantStore` on auth-svc's file (`apple_grant`, removed with its user).
struct SQLiteAppleGrantStore: AppleGrantStore {
    let database: any DatabaseWriter

    func save(userID: String, appID: String, sealedRefreshToken: Data, at time: Int64) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO apple_grant (user_id, app_id, sealed_refresh_token, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET sealed_refresh_token = excluded.sealed_refresh_token, updated_at = excluded.updated_at
                    """, arguments: [userID, appID, sealedRefreshToken, time])
        }
    }
}
