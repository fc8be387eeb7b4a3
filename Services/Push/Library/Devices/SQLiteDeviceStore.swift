import Contracts
import GRDB
import ServiceKit

/// `DeviceStore` on push-svc's SQLite file.
struct SQLiteDeviceStore: DeviceStore {
    let database: any DatabaseWriter

    func register(token: String, platform: DevicePlatform, appID: String, userID: String, sessionID: String, at time: Int64) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(token) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, session_id = excluded.session_id,
                        platform = excluded.platform, updated_at = excluded.updated_at
                    """, arguments: [token, appID, userID, sessionID, platform.rawValue, time])
        }
    }

    func devices(appID: String, userID: String) async throws -> [DeviceRecord] {
        try await database.read { db in
            try DeviceRecord.fetchAll(
                db, sql: "SELECT * FROM device WHERE app_id = ? AND user_id = ? ORDER BY updated_at DESC LIMIT 100", arguments: [appID, userID])
        }
    }

    func removeDevices(appID: String, userID: String, sessionID: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM device WHERE app_id = ? AND user_id = ? AND session_id = ?", arguments: [appID, userID, sessionID])
        }
    }
}
