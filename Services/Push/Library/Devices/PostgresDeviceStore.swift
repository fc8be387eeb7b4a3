import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `DeviceStore` on PostgreSQL.
struct PostgresDeviceStore: DeviceStore {
    let pool: PostgresPool

    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws {
        try await pool.client.query(
            """
            INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at)
            VALUES (\(token), \(appID), \(userID), \(sessionID), \(platform.rawValue), \(time))
            ON CONFLICT (token) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, session_id = excluded.session_id,
                platform = excluded.platform, updated_at = excluded.updated_at
            """, logger: pool.logger)
    }

    func devices(appID: String, userID: String) async throws -> [DeviceRecord] {
        try await pool.read {
            try await $0.records(
                DeviceRecord.self,
                "SELECT * FROM device WHERE app_id = \(appID) AND user_id = \(userID) ORDER BY updated_at DESC LIMIT 100", logger: pool.logger)
        }
    }

    func removeDevices(appID: String, userID: String, sessionID: String) async throws {
        try await pool.client.query(
            "DELETE FROM device WHERE app_id = \(appID) AND user_id = \(userID) AND session_id = \(sessionID)", logger: pool.logger)
    }
}
