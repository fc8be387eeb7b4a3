import GRDB
import Outbox
import PostgresNIO
import PostgresStorage
import SQLiteStorage
import ServiceKit
import TestSupport

/// An outbox on one engine, for the relay's tests to run on both.
protocol OutboxFixture: Sendable {
    var store: any OutboxStore { get }
    /// Messages of topic `t` with payload `{"n":…}`, committed together.
    func enqueue(_ messages: [(key: String, n: Int)]) async throws
    /// Ids of the messages matching an SQL condition both engines read alike, in order.
    func ids(where condition: String) async throws -> [Int64]
    func execute(_ sql: String) async throws
}

struct OutboxPayload: Codable, Equatable {
    var n: Int
}

struct SQLiteOutboxFixture: OutboxFixture {
    let pool: DatabasePool
    var store: any OutboxStore { SQLiteOutboxStore(database: pool) }

    init() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("outbox") { db in try SQLiteOutboxStore.createTable(db) }
        pool = try DatabaseFactory.openPool(at: try TestEnvironment.temporaryDirectory() + "/outbox.sqlite", migrator: migrator)
    }

    func enqueue(_ messages: [(key: String, n: Int)]) async throws {
        try await pool.write { db in
            for message in messages { try SQLiteOutboxStore.enqueue(db, topic: "t", key: message.key, payload: OutboxPayload(n: message.n)) }
        }
    }

    func ids(where condition: String) async throws -> [Int64] {
        try await pool.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM outbox WHERE \(condition) ORDER BY id") }
    }

    func execute(_ sql: String) async throws {
        try await pool.write { db in try db.execute(sql: sql) }
    }
}

struct PostgresOutboxFixture: OutboxFixture {
    let database: PostgresPool
    var store: any OutboxStore { PostgresOutboxStore(database: database) }

    static func make() async throws -> PostgresOutboxFixture {
        let database = try await TestPostgres.freshDatabase().database
        try await database.migrate([PostgresMigration("outbox", PostgresOutboxStore.createTable)])
        return PostgresOutboxFixture(database: database)
    }

    func enqueue(_ messages: [(key: String, n: Int)]) async throws {
        try await database.client.withTransaction(logger: database.logger) { connection in
            for message in messages {
                try await PostgresOutboxStore.enqueue(
                    connection, topic: "t", key: message.key, payload: OutboxPayload(n: message.n), logger: database.logger)
            }
        }
    }

    func ids(where condition: String) async throws -> [Int64] {
        var ids: [Int64] = []
        let rows = try await database.client.query(
            PostgresQuery(unsafeSQL: "SELECT id FROM outbox WHERE \(condition) ORDER BY id"), logger: database.logger)
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        return ids
    }

    func execute(_ sql: String) async throws {
        try await database.client.query(PostgresQuery(unsafeSQL: sql), logger: database.logger)
    }
}
