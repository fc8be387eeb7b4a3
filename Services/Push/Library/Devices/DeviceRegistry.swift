import Contracts
import Foundation
import GRDB
import ServiceKit

/// The devices to push to, per user and app.
struct DeviceRegistry: Sendable {
    let database: any DatabaseWriter

    static let maxTokenLength = 4096

    /// `token` for the caller's session, moved from whoever had it; `""` removes the devices the
    /// caller's session registered (sign-out on this device).
    func register(_ token: String, platform given: String? = nil, caller: AuthenticatedUser) async throws {
        let token = token.trimmingCharacters(in: .whitespaces)
        let platform: DevicePlatform
        switch given {
        case nil, "": platform = DevicePlatform.detect(token)
        case "fcm": platform = .fcm
        case "apns": platform = .apns
        default: throw ServiceError.badRequest("platform must be fcm or apns")
        }
        guard token.utf8.count <= Self.maxTokenLength, token.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw ServiceError.badRequest("deviceToken must be a printable token of at most \(Self.maxTokenLength) characters")
        }
        try await database.write { db in
            if token.isEmpty {
                try db.execute(sql: "DELETE FROM device WHERE app_id = ? AND user_id = ? AND session_id = ?",
                               arguments: [caller.appID, caller.userID, caller.sessionID])
                return
            }
            try db.execute(sql: """
                INSERT INTO device (token, app_id, user_id, session_id, platform, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(token) DO UPDATE SET app_id = excluded.app_id, user_id = excluded.user_id, session_id = excluded.session_id,
                    platform = excluded.platform, updated_at = excluded.updated_at
                """, arguments: [token, caller.appID, caller.userID, caller.sessionID, platform.rawValue, GlintDate.nowMilliseconds()])
        }
    }

    /// A token the provider reported dead stops being used.
    static func prune(_ db: Database, token: String) throws {
        try db.execute(sql: "DELETE FROM device WHERE token = ?", arguments: [token])
    }
}
