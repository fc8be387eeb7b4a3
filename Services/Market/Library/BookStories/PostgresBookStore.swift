import PostgresNIO
import PostgresStorage
import ServiceKit

/// `BookStore` on PostgreSQL.
struct PostgresBookStore: BookStore {
    let pool: PostgresPool

    func upsert(_ books: [BookRecord]) async throws -> [BookRecord] {
        let logger = pool.logger
        return try await pool.transaction { connection in
            var stored: [BookRecord] = []
            for book in books {
                let id = try await connection.value(
                    String.self,
                    """
                    INSERT INTO book (id, app_id, isbn_key, title, authors, translators, introduction, publisher, publication_date, image_url,
                                      link, isbns, updated_at)
                    VALUES (\(book.id), \(book.appID), \(book.isbnKey), \(book.title), \(JSONText.encode(book.authors)), \(JSONText.encode(book.translators)),
                            \(book.introduction), \(book.publisher), \(book.publicationDate), \(book.imageURL), \(book.link), \(JSONText.encode(book.isbns)),
                            \(book.updatedAt))
                    ON CONFLICT (app_id, isbn_key) DO UPDATE SET
                        title = excluded.title, authors = excluded.authors, translators = excluded.translators,
                        introduction = excluded.introduction, publisher = excluded.publisher, publication_date = excluded.publication_date,
                        image_url = excluded.image_url, link = excluded.link, isbns = excluded.isbns, updated_at = excluded.updated_at
                    RETURNING id
                    """, logger: logger)
                var book = book
                book.id = id ?? book.id
                stored.append(book)
            }
            return stored
        }
    }

    func books(ids: [String], appID: String) async throws -> [String: BookRecord] {
        guard !ids.isEmpty else { return [:] }
        let books = try await pool.read { connection in
            try await connection.rows(
                "SELECT * FROM book WHERE app_id = \(appID) AND id = ANY(\(Array(Set(ids))))", logger: pool.logger
            ) { try BookRecord($0) }
        }
        return Dictionary(uniqueKeysWithValues: books.map { ($0.id, $0) })
    }

    func sample(appID: String, day: Int64, count: Int) async throws -> [BookRecord] {
        // The sequence hashed with the day as salt, mixed twice so that a new salt is a new order
        // (products stay below 2^63), as on SQLite.
        try await pool.read { connection in
            try await connection.rows(
                """
                SELECT * FROM book WHERE app_id = \(appID) ORDER BY (((seq * 2654435761 + \((day % 1_000_003) * 97_531)) % 4294967291) * 1597334677) % 4294967279
                LIMIT \(count)
                """, logger: pool.logger
            ) { try BookRecord($0) }
        }
    }
}

extension BookRecord {
    /// `book`'s columns as `BookRecord` reads them.
    private static let columns = [
        "id", "app_id", "isbn_key", "title", "authors", "translators", "introduction", "publisher", "publication_date", "image_url", "link",
        "isbns", "updated_at",
    ]

    /// `book`'s columns named `prefix` + their name, for a row that holds another table's too (a
    /// story page's).
    static func selection(prefix: String) -> String {
        columns.map { "book.\($0) AS \(prefix)\($0)" }.joined(separator: ", ")
    }

    /// A row of `book`, or a row holding its columns named `prefix` + their name.
    init(_ row: PostgresRandomAccessRow, prefix: String = "") throws {
        func column<Value: PostgresDecodable>(_ name: String, as: Value.Type = Value.self) throws -> Value {
            try row.value(prefix.isEmpty ? name : prefix + name, as: Value.self)
        }
        try self.init(
            id: column("id"), appID: column("app_id"), isbnKey: column("isbn_key"), title: column("title"),
            authors: JSONText.strings(column("authors", as: String.self)) ?? [],
            translators: JSONText.strings(column("translators", as: String.self)) ?? [],
            introduction: column("introduction"), publisher: column("publisher"), publicationDate: column("publication_date"),
            imageURL: column("image_url"), link: column("link"), isbns: JSONText.strings(column("isbns", as: String.self)) ?? [],
            updatedAt: column("updated_at")
        )
    }
}
