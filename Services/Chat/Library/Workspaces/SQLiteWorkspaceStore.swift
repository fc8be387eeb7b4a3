import Contracts
import GRDB
import SQLiteStorage
import ServiceKit

extension WorkspaceRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "workspace"

    enum Columns {
        static let appID = Column(CodingKeys.appID)
        static let state = Column(CodingKeys.state)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

extension WorkspaceMemberRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "workspace_member"

    enum Columns {
        static let workspaceID = Column(CodingKeys.workspaceID)
        static let joinedAt = Column(CodingKeys.joinedAt)
    }
}

/// `WorkspaceStore` on chat-svc's SQLite file.
struct SQLiteWorkspaceStore: WorkspaceStore {
    let database: any DatabaseWriter
    /// Lookups by key, on the caller's thread.
    let lookups: SQLiteLookups

    func reserve(_ workspace: WorkspaceRecord) async throws {
        try await Self.ownerNameUnique("you already have a workspace of that name") {
            try await database.write { db in try workspace.insert(db) }
        }
    }

    func activate(_ workspaceID: String, defaultChannel: ChannelRecord) async throws -> WorkspaceRecord {
        try await database.write { db in
            let workspace = try WorkspaceRules.activated(try WorkspaceRecord.fetchOne(db, key: workspaceID))
            try workspace.update(db)
            try WorkspaceMemberRecord(workspaceID: workspaceID, userID: workspace.ownerID, appID: workspace.appID, joinedAt: workspace.createdAt)
                .insert(db)
            try SQLiteChannelStore.insert(db, defaultChannel, appID: workspace.appID)
            return workspace
        }
    }

    func abandon(_ workspaceID: String) async throws {
        try await database.write { db in
            _ = try WorkspaceRecord.filter(key: workspaceID).filter(WorkspaceRecord.Columns.state == WorkspaceRecord.State.pending.rawValue)
                .deleteAll(db)
        }
    }

    func pending(before time: Int64, limit: Int) async throws -> [WorkspaceRecord] {
        try await database.read { db in
            try WorkspaceRecord.filter(
                WorkspaceRecord.Columns.state == WorkspaceRecord.State.pending.rawValue && WorkspaceRecord.Columns.createdAt < time
            )
            .order(WorkspaceRecord.Columns.createdAt).limit(limit).fetchAll(db)
        }
    }

    func workspaces(of userID: String, appID: String) async throws -> [WorkspaceRecord] {
        try await database.read { db in
            try WorkspaceRecord.fetchAll(
                db,
                sql: """
                    SELECT workspace.* FROM workspace_member JOIN workspace ON workspace.id = workspace_member.workspace_id
                    WHERE workspace_member.app_id = ? AND workspace_member.user_id = ? AND workspace.state = 'active'
                    ORDER BY workspace.created_at, workspace.id LIMIT 1000
                    """, arguments: [appID, userID])
        }
    }

    func workspace(_ id: String, member userID: String, appID: String) async throws -> WorkspaceRecord {
        guard ObjectID.isValid(id) else { throw StoreError.notFound("workspace not found") }
        // Every workspace route asks this first: one prepared statement, kept.
        let found = try await database.read { db in
            try WorkspaceRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT workspace.* FROM workspace
                        JOIN workspace_member ON workspace_member.workspace_id = workspace.id AND workspace_member.user_id = ?
                        WHERE workspace.id = ? AND workspace.app_id = ? AND workspace.state = 'active'
                        """), arguments: [userID, id, appID])
        }
        guard let found else { throw StoreError.notFound("workspace not found") }
        return found
    }

    func isMember(_ workspaceID: String, userID: String) async throws -> Bool {
        try lookups.readNow { db in try WorkspaceMemberRecord.exists(db, key: ["workspace_id": workspaceID, "user_id": userID]) }
    }

    func members(of workspaceID: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(
                db, sql: "SELECT user_id FROM workspace_member WHERE workspace_id = ? ORDER BY joined_at, user_id", arguments: [workspaceID])
        }
    }

    func update(_ workspace: WorkspaceRecord) async throws {
        try await Self.ownerNameUnique("you already have a workspace of that name") {
            try await database.write { db in try workspace.update(db) }
        }
    }

    func delete(_ workspaceID: String) async throws {
        // Rooms, channels, members and messages go with it (foreign keys, cascading).
        _ = try await database.write { db in try WorkspaceRecord.deleteOne(db, key: workspaceID) }
    }

    func addMember(_ workspaceID: String, userID: String, appID: String, at time: Int64) async throws {
        try await database.write { db in
            do {
                try WorkspaceMemberRecord(workspaceID: workspaceID, userID: userID, appID: appID, joinedAt: time).insert(db)
            } catch let error as DatabaseError where error.isUniqueViolation {
                throw StoreError.conflict("already a member")
            }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO participant (room_id, user_id, app_id, read_at)
                    SELECT room_id, ?, ?, 0 FROM channel WHERE workspace_id = ? AND is_default
                    """, arguments: [userID, appID, workspaceID])
        }
    }

    func transfer(_ workspaceID: String, to userID: String) async throws -> WorkspaceRecord {
        try await Self.ownerNameUnique("the new owner has a workspace of that name") {
            try await database.write { db in
                let workspace = try WorkspaceRules.transferred(
                    try WorkspaceRecord.fetchOne(db, key: workspaceID), to: userID,
                    isMember: try WorkspaceMemberRecord.exists(db, key: ["workspace_id": workspaceID, "user_id": userID]))
                try workspace.update(db)
                return workspace
            }
        }
    }

    func leave(_ workspaceID: String, userID: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    DELETE FROM participant WHERE user_id = ? AND room_id IN (SELECT room_id FROM channel WHERE workspace_id = ?)
                    """, arguments: [userID, workspaceID])
            _ = try WorkspaceMemberRecord.deleteOne(db, key: ["workspace_id": workspaceID, "user_id": userID])
        }
    }

    /// Whether the workspace's owner has another workspace (pending or active) of its name.
    /// The (app, owner, name) key refusing a write: `conflict` with `message`.
    @discardableResult
    private static func ownerNameUnique<Result>(_ message: String, _ write: () async throws -> Result) async throws -> Result {
        do {
            return try await write()
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw StoreError.conflict(message)
        }
    }
}
