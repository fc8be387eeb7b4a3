import GRDB
import SQLiteStorage
import ServiceKit

/// `BookStore` on market-svc's SQLite file.
struct SQLiteBookStore: BookStore {
    let database: any DatabaseWriter

    func upsert(_ books: [BookRecord]) async throws -> [BookRecord] {
        try await database.write { db in
            try books.map { book in
                let id = try String.fetchOne(
                    db.cachedStatement(
                        sql: """
                            INSERT INTO book (id, app_id, isbn_key, title, authors, translators, introduction, publisher, publication_date, image_url,
                                              link, isbns, updated_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT (app_id, isbn_key) DO UPDATE SET
                                title = excluded.title, authors = excluded.authors, translators = excluded.translators,
                                introduction = excluded.introduction, publisher = excluded.publisher, publication_date = excluded.publication_date,
                                image_url = excluded.image_url, link = excluded.link, isbns = excluded.isbns, updated_at = excluded.updated_at
                            RETURNING id
                            """),
                    arguments: [
                        book.id, book.appID, book.isbnKey, book.title, JSONText.encode(book.authors), JSONText.encode(book.translators),
                        book.introduction, book.publisher, book.publicationDate, book.imageURL, book.link, JSONText.encode(book.isbns),
                        book.updatedAt,
                    ])
                var stored = book
                stored.id = id ?? book.id
                return stored
            }
        }
    }

    func books(ids: [String], appID: String) async throws -> [String: BookRecord] {
        try await database.read { db in try Self.books(db, ids: ids, appID: appID) }
    }

    /// The same inside another store's read.
    static func books(_ db: Database, ids: [String], appID: String) throws -> [String: BookRecord] {
        guard !ids.isEmpty else { return [:] }
        let books = try Row.decodeAll(
            db.cachedStatement(sql: "SELECT * FROM book WHERE app_id = ? AND id IN (SELECT value FROM json_each(?))"),
            arguments: [appID, JSONText.encode(Array(Set(ids)))], BookRecord.init(row:))
        return Dictionary(uniqueKeysWithValues: books.map { ($0.id, $0) })
    }

    func sample(appID: String, day: Int64, count: Int) async throws -> [BookRecord] {
        try await database.read { db in
            // The rowid hashed with the day as salt, mixed twice so that a new salt is a new order
            // (products stay below 2^63).
            try Row.decodeAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM book WHERE app_id = ? ORDER BY (((rowid * 2654435761 + ?) % 4294967291) * 1597334677) % 4294967279 LIMIT ?
                        """), arguments: [appID, (day % 1_000_003) * 97_531, count], BookRecord.init(row:))
        }
    }
}
