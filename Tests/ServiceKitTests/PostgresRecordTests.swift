import Foundation
import PostgresNIO
import PostgresStorage
import ServiceKit
import TestSupport
import XCTest

/// Records written and read by their `CodingKeys` on PostgreSQL.
final class PostgresRecordTests: XCTestCase {
    enum Kind: String, Codable { case pair, group }

    struct Record: Codable, Equatable {
        var id: String
        var count: Int64
        var small: Int
        var flag: Bool
        var ratio: Double
        var kind: Kind
        var note: String?
        var blob: Data
        var updatedAt: Int64?

        enum CodingKeys: String, CodingKey {
            case id, count, small, flag, ratio, kind, note, blob
            case updatedAt = "updated_at"
        }
    }

    func testARecordGoesInAndComesBackAsItWas() async throws {
        let (pool, _) = try await TestPostgres.freshDatabase()
        defer { pool.close() }
        try await pool.migrate([
            PostgresMigration(
                "t",
                [
                    """
                    CREATE TABLE record (id text PRIMARY KEY, count bigint NOT NULL, small bigint NOT NULL, flag boolean NOT NULL,
                        ratio double precision NOT NULL, kind text NOT NULL, note text, blob bytea NOT NULL, updated_at bigint)
                    """
                ])
        ])
        let first = Record(
            id: "a", count: 1 << 40, small: -3, flag: true, ratio: 0.25, kind: .group, note: nil, blob: Data([0, 1, 255]), updatedAt: 7)
        var second = Record(id: "b", count: 0, small: 0, flag: false, ratio: -1, kind: .pair, note: "안녕", blob: Data(), updatedAt: nil)
        for record in [first, second] { try await pool.client.query(try PostgresColumns(record).insert(into: "record"), logger: pool.logger) }
        let rows = try await pool.client.query("SELECT * FROM record ORDER BY id", logger: pool.logger)
        let read = try await PostgresRecordDecoder.decodeAll(Record.self, from: rows)
        XCTAssertEqual(read, [first, second])

        second.note = nil
        second.updatedAt = 99
        second.kind = .group
        try await pool.client.query(try PostgresColumns(second).update("record", key: "id"), logger: pool.logger)
        let again = try await PostgresRecordDecoder.decodeAll(
            Record.self, from: try await pool.client.query("SELECT * FROM record WHERE id = 'b'", logger: pool.logger))
        XCTAssertEqual(again, [second], "a property set to nil writes NULL")
    }

    func testAMissingColumnIsADecodingError() async throws {
        let (pool, _) = try await TestPostgres.freshDatabase()
        defer { pool.close() }
        let rows = try await pool.client.query("SELECT 'x' AS id", logger: pool.logger)
        do {
            _ = try await PostgresRecordDecoder.decodeAll(Record.self, from: rows)
            XCTFail("count is missing")
        } catch DecodingError.keyNotFound(let key, _) {
            XCTAssertEqual(key.stringValue, "count")
        }
    }
}
