import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `WorkspaceStore` on PostgreSQL. A name taken twice at once is refused by the unique key
/// (app, owner, name), whichever replica asks.
struct PostgresWorkspaceStore: WorkspaceStore {
    let pool: PostgresPool

    func reserve(_ workspace: WorkspaceRecord) async throws {
        try await Self.ownerNameUnique("you already have a workspace of that name") {
            try await pool.transaction { try await $0.query(try PostgresColumns(workspace).insert(into: "workspace"), logger: pool.logger) }
        }
    }

    func activate(_ workspaceID: String, defaultChannel: ChannelRecord) async throws -> WorkspaceRecord {
        let logger = pool.logger
        return try await pool.transaction { connection in
            let workspace = try WorkspaceRules.activated(
                try await connection.record(WorkspaceRecord.self, "SELECT * FROM workspace WHERE id = \(workspaceID) FOR UPDATE", logger: logger))
            try await connection.query("UPDATE workspace SET state = 'active' WHERE id = \(workspaceID)", logger: logger)
            let member = WorkspaceMemberRecord(
                workspaceID: workspaceID, userID: workspace.ownerID, appID: workspace.appID, joinedAt: workspace.createdAt)
            try await connection.query(try PostgresColumns(member).insert(into: "workspace_member"), logger: logger)
            try await PostgresChannelStore.insert(connection, defaultChannel, appID: workspace.appID, logger: logger)
            return workspace
        }
    }

    func abandon(_ workspaceID: String) async throws {
        try await pool.transaction {
            try await $0.query("DELETE FROM workspace WHERE id = \(workspaceID) AND state = 'pending'", logger: pool.logger)
        }
    }

    func pending(before time: Int64, limit: Int) async throws -> [WorkspaceRecord] {
        try await pool.read {
            try await $0.records(
                WorkspaceRecord.self,
                """
                SELECT * FROM workspace WHERE state = 'pending' AND created_at < \(time) ORDER BY created_at LIMIT \(limit)
                """, logger: pool.logger)
        }
    }

    func workspaces(of userID: String, appID: String) async throws -> [WorkspaceRecord] {
        try await pool.read {
            try await $0.records(
                WorkspaceRecord.self,
                """
                SELECT workspace.* FROM workspace_member JOIN workspace ON workspace.id = workspace_member.workspace_id
                WHERE workspace_member.app_id = \(appID) AND workspace_member.user_id = \(userID) AND workspace.state = 'active'
                ORDER BY workspace.created_at, workspace.id LIMIT 1000
                """, logger: pool.logger)
        }
    }

    func workspace(_ id: String, member userID: String, appID: String) async throws -> WorkspaceRecord {
        guard ObjectID.isValid(id) else { throw StoreError.notFound("workspace not found") }
        let found = try await pool.read {
            try await $0.record(
                WorkspaceRecord.self,
                """
                SELECT workspace.* FROM workspace
                JOIN workspace_member ON workspace_member.workspace_id = workspace.id AND workspace_member.user_id = \(userID)
                WHERE workspace.id = \(id) AND workspace.app_id = \(appID) AND workspace.state = 'active'
                """, logger: pool.logger)
        }
        guard let found else { throw StoreError.notFound("workspace not found") }
        return found
    }

    func isMember(_ workspaceID: String, userID: String) async throws -> Bool {
        try await pool.read {
            try await $0.count("SELECT 1 FROM workspace_member WHERE workspace_id = \(workspaceID) AND user_id = \(userID)", logger: pool.logger) > 0
        }
    }

    func members(of workspaceID: String) async throws -> [String] {
        try await pool.read {
            try await $0.values(
                String.self, "SELECT user_id FROM workspace_member WHERE workspace_id = \(workspaceID) ORDER BY joined_at, user_id",
                logger: pool.logger)
        }
    }

    func update(_ workspace: WorkspaceRecord) async throws {
        try await Self.ownerNameUnique("you already have a workspace of that name") {
            try await pool.transaction { try await $0.query(try PostgresColumns(workspace).update("workspace", key: "id"), logger: pool.logger) }
        }
    }

    func delete(_ workspaceID: String) async throws {
        // Rooms, channels, members and messages go with it (foreign keys, cascading).
        try await pool.transaction { try await $0.query("DELETE FROM workspace WHERE id = \(workspaceID)", logger: pool.logger) }
    }

    func addMember(_ workspaceID: String, userID: String, appID: String, at time: Int64) async throws {
        let logger = pool.logger
        try await pool.transaction { connection in
            let member = WorkspaceMemberRecord(workspaceID: workspaceID, userID: userID, appID: appID, joinedAt: time)
            guard
                try await connection.count(
                    try PostgresColumns(member).insert(into: "workspace_member", "ON CONFLICT DO NOTHING RETURNING 1"), logger: logger) > 0
            else {
                throw StoreError.conflict("already a member")
            }
            try await connection.query(
                """
                INSERT INTO participant (room_id, user_id, app_id)
                SELECT room_id, \(userID), \(appID) FROM channel WHERE workspace_id = \(workspaceID) AND is_default ON CONFLICT DO NOTHING
                """, logger: logger)
        }
    }

    func transfer(_ workspaceID: String, to userID: String) async throws -> WorkspaceRecord {
        let logger = pool.logger
        return try await Self.ownerNameUnique("the new owner has a workspace of that name") {
            try await pool.transaction { connection in
                let found = try await connection.record(
                    WorkspaceRecord.self, "SELECT * FROM workspace WHERE id = \(workspaceID) FOR UPDATE", logger: logger)
                let isMember =
                    try await connection.count(
                        "SELECT 1 FROM workspace_member WHERE workspace_id = \(workspaceID) AND user_id = \(userID)", logger: logger) > 0
                let workspace = try WorkspaceRules.transferred(found, to: userID, isMember: isMember)
                try await connection.query("UPDATE workspace SET owner_id = \(userID) WHERE id = \(workspaceID)", logger: logger)
                return workspace
            }
        }
    }

    func leave(_ workspaceID: String, userID: String) async throws {
        let logger = pool.logger
        try await pool.transaction { connection in
            try await connection.query(
                """
                DELETE FROM participant WHERE user_id = \(userID) AND room_id IN (SELECT room_id FROM channel WHERE workspace_id = \(workspaceID))
                """, logger: logger)
            try await connection.query("DELETE FROM workspace_member WHERE workspace_id = \(workspaceID) AND user_id = \(userID)", logger: logger)
        }
    }

    /// The (app, owner, name) key refusing a write: `conflict` with `message`.
    @discardableResult
    private static func ownerNameUnique<Result>(_ message: String, _ write: () async throws -> Result) async throws -> Result {
        do {
            return try await write()
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict(message)
        }
    }
}
