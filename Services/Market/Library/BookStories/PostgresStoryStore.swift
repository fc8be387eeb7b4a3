import Contracts
import PostgresNIO
import PostgresStorage
import ServiceKit

/// `StoryStore` on PostgreSQL.
struct PostgresStoryStore: StoryStore {
    let pool: PostgresPool
    /// Removing stories removes their comments, which the post cache watches with the rest.
    let postChanges: PostgresChangeCounter

    func insert(_ story: StoryRecord) async throws {
        try await write(story) { connection in
            try await connection.query(
                """
                INSERT INTO story (id, app_id, user_id, book_id, quotes, content, images, is_public, keywords, search_text, created_at, updated_at)
                VALUES (\(story.id), \(story.appID), \(story.userID), \(story.bookID), \(JSONText.encode(story.quotes)), \(story.content),
                        \(JSONText.encode(story.images)), \(story.isPublic), \(JSONText.encode(story.keywords)), \(story.searchText),
                        \(story.createdAt), \(story.updatedAt))
                """, logger: pool.logger)
        }
    }

    func update(_ story: StoryRecord) async throws {
        try await write(story) { connection in
            try await connection.query(
                """
                UPDATE story SET quotes = \(JSONText.encode(story.quotes)), content = \(story.content), images = \(JSONText.encode(story.images)),
                is_public = \(story.isPublic), keywords = \(JSONText.encode(story.keywords)), search_text = \(story.searchText),
                updated_at = \(story.updatedAt) WHERE id = \(story.id)
                """, logger: pool.logger)
            try await connection.query("DELETE FROM story_theme WHERE story_id = \(story.id)", logger: pool.logger)
        }
    }

    /// The story's row written by `body` after its references are checked, then its themes, in
    /// one transaction.
    private func write(_ story: StoryRecord, _ body: (PostgresConnection) async throws -> Void) async throws {
        let logger = pool.logger
        do {
            try await pool.transaction { connection in
                let book = try await connection.count("SELECT 1 FROM book WHERE id = \(story.bookID) AND app_id = \(story.appID)", logger: logger) > 0
                var owners: [String: String] = [:]
                if !story.themeIDs.isEmpty {
                    let rows = try await connection.query(
                        "SELECT id, user_id FROM theme WHERE id = ANY(\(story.themeIDs)) AND app_id = \(story.appID)", logger: logger)
                    for try await (id, owner) in rows.decode((String, String).self) { owners[id] = owner }
                }
                try StoryRules.checkReferences(of: story, bookFound: book, themeOwners: owners)
                try await body(connection)
                for (position, themeID) in story.themeIDs.enumerated() {
                    try await connection.query(
                        """
                        INSERT INTO story_theme (story_id, theme_id, position, created_at) VALUES (\(story.id), \(themeID), \(position), \(story.createdAt))
                        """, logger: logger)
                }
            }
        } catch let error as PSQLError where error.isForeignKeyViolation {
            // A theme removed by another request between the check and the insert.
            throw StoreError.notFound("no such folder of yours")
        }
    }

    func delete(_ story: StoryRecord) async throws {
        let logger = pool.logger
        try await pool.transaction { connection in
            try await PostgresCommentStore.deleteComments(connection, of: .bookstory, id: story.id, logger: logger)
            try await connection.query("DELETE FROM story WHERE id = \(story.id)", logger: logger)
        }
        postChanges.bump()
    }

    func story(id: String, appID: String) async throws -> StoryRecord? {
        try await pool.read { connection in
            try await connection.rows(
                "SELECT story.*, \(unescaped: Self.storyThemes) FROM story WHERE id = \(id) AND app_id = \(appID)", logger: pool.logger,
                Self.record
            ).first
        }
    }

    /// One statement for the page, its total, its stories' themes and their books (a round trip
    /// to the database each was most of the page's cost); a page past the end asks the total alone.
    func page(_ query: StoryQuery) async throws -> (stories: [StoryRecord], total: Int, books: [String: BookRecord]) {
        if case .author(let userID, _) = query.scope, query.hidden.users.contains(userID) { return ([], 0, [:]) }
        var statement = PostgresStatement()
        let (filter, total) = Self.filterAndTotal(query, &statement)
        let order = "ORDER BY created_at DESC, seq DESC"
        let limit = "LIMIT \(statement.bind(query.page.size)) OFFSET \(statement.bind(query.page.offset))"
        let (with, rows): (String, String)
        if let fewMatches = query.fewMatches {
            // A public search's plan chosen by the matches it counts (`StoryQuery.fewMatches`), not by
            // the planner's estimate of a `LIKE` from ANALYZE's sample: one that guessed 1% walked
            // `story_public` through every public story for ten matches. Each branch runs only when
            // its one-time condition holds; `matches` is planned alone, without the LIMIT that makes
            // walking newest first look cheap.
            let few = statement.bind(fewMatches)
            with = """
                WITH counted (n) AS MATERIALIZED (\(total)),
                matches AS MATERIALIZED (SELECT * FROM story WHERE \(filter) AND (SELECT n FROM counted) < \(few))
                """
            rows = """
                (SELECT *, (SELECT n FROM counted) AS total FROM story WHERE \(filter) AND (SELECT n FROM counted) >= \(few) \(order) \(limit))
                UNION ALL (SELECT *, (SELECT n FROM counted) FROM matches \(order) \(limit))
                """
        } else {
            (with, rows) = ("", "SELECT *, (\(total)) AS total FROM story WHERE \(filter) \(order) \(limit)")
        }
        // The themes and books outside the LIMIT: PostgreSQL computes a row's columns before OFFSET
        // skips it. A story's book is always there (`book_id` references it, books are never removed).
        let sql = """
            \(with) SELECT page.*, \(Self.pageThemes), \(Self.books) FROM (\(rows)) AS page
            JOIN book ON book.id = page.book_id AND book.app_id = page.app_id ORDER BY page.created_at DESC, page.seq DESC
            """
        let logger = pool.logger
        return try await pool.read { connection in
            var books: [String: BookRecord] = [:]
            let rows = try await connection.rows(statement.query(sql), logger: logger) { row in
                let story = try Self.record(row)
                if books[story.bookID] == nil { books[story.bookID] = try BookRecord(row, prefix: Self.bookPrefix) }
                return (story, try row.value("total", as: Int.self))
            }
            if let total = rows.first?.1 { return (rows.map(\.0), total, books) }
            var alone = PostgresStatement()
            let (_, total) = Self.filterAndTotal(query, &alone)
            return ([], try await connection.value(Int.self, alone.query("SELECT (\(total))"), logger: logger) ?? 0, [:])
        }
    }

    func count(userID: String, appID: String, privateToo: Bool) async throws -> Int {
        try await pool.read { connection in
            try await connection.value(
                Int.self,
                """
                SELECT COUNT(*) FROM story WHERE user_id = \(userID) AND app_id = \(appID) AND (is_public OR \(privateToo))
                """, logger: pool.logger) ?? 0
        }
    }

    func removeContent(of userID: String, appID: String) async throws -> [String] {
        let logger = pool.logger
        let images = try await pool.transaction { connection in
            var images = try await connection.values(
                String.self, "SELECT images FROM story WHERE user_id = \(userID) AND app_id = \(appID)", logger: logger
            )
            .flatMap { JSONText.strings($0) ?? [] }
            images += try await connection.values(
                String.self,
                """
                SELECT image FROM theme WHERE user_id = \(userID) AND app_id = \(appID) AND image IS NOT NULL
                """, logger: logger)
            try await connection.query(
                """
                DELETE FROM comment WHERE target_type = 'bookstory' AND target_id IN (SELECT id FROM story WHERE user_id = \(userID) AND app_id = \(appID))
                """, logger: logger)
            // Replies to the account's comments go with them (parent_id cascades).
            try await connection.query(
                "DELETE FROM comment WHERE target_type = 'bookstory' AND creator_id = \(userID) AND app_id = \(appID)", logger: logger)
            try await connection.query("DELETE FROM story WHERE user_id = \(userID) AND app_id = \(appID)", logger: logger)
            try await connection.query("DELETE FROM theme WHERE user_id = \(userID) AND app_id = \(appID)", logger: logger)
            return images
        }
        postChanges.bump()
        return images
    }

    /// The page's conditions, and its total as a scalar subquery, both bound in `statement`: from
    /// `story_count` when the list has no keyword or theme (the app's or the author's stories,
    /// less the hidden authors' and the hidden stories that would have counted), else by counting.
    private static func filterAndTotal(_ query: StoryQuery, _ statement: inout PostgresStatement) -> (filter: String, total: String) {
        var conditions = query.scope.postgresConditions(appID: query.appID, hidden: query.hidden, &statement)
        if !query.hidden.stories.isEmpty {
            conditions.append("NOT id = ANY(\(statement.bind(Array(query.hidden.stories))))")
        }
        if let keyword = query.keyword {
            // `LIKE`, not `strpos`: the same substring test, but one the trigram index can answer.
            conditions.append("search_text LIKE \(statement.bind(LikePattern.containing(keyword)))")
        }
        if let themeID = query.themeID {
            conditions.append("id IN (SELECT story_id FROM story_theme WHERE theme_id = \(statement.bind(themeID)))")
        }
        let filter = conditions.joined(separator: " AND ")
        guard query.keyword == nil, query.themeID == nil else { return (filter, "SELECT COUNT(*) FROM story WHERE \(filter)") }
        let (hiddenUsers, hiddenStories) = (Array(query.hidden.users), Array(query.hidden.stories))
        func hiddenCount(privateToo: Bool, author: String?) -> String {
            """
            (SELECT COUNT(*) FROM story WHERE id = ANY(\(statement.bind(hiddenStories))) AND app_id = \(statement.bind(query.appID))
             AND (is_public OR \(statement.bind(privateToo))) AND NOT user_id = ANY(\(statement.bind(hiddenUsers)))
             AND (\(statement.bind(author))::text IS NULL OR user_id = \(statement.bind(author))))
            """
        }
        switch query.scope {
        case .everyone:
            return (
                filter,
                """
                SELECT (COALESCE((SELECT public FROM story_count WHERE app_id = \(statement.bind(query.appID)) AND user_id = ''), 0)
                     - COALESCE((SELECT SUM(public) FROM story_count WHERE app_id = \(statement.bind(query.appID)) AND user_id = ANY(\(statement.bind(hiddenUsers)))), 0)
                     - \(hiddenCount(privateToo: false, author: nil)))::bigint
                """
            )
        case .author(let userID, let privateToo):
            return (
                filter,
                """
                SELECT COALESCE((SELECT CASE WHEN \(statement.bind(privateToo)) THEN total ELSE public END FROM story_count
                                 WHERE app_id = \(statement.bind(query.appID)) AND user_id = \(statement.bind(userID))), 0)
                     - \(hiddenCount(privateToo: privateToo, author: userID))
                """
            )
        }
    }

    /// A page's books beside its stories, their columns named `b_` + their name (written once).
    private static let bookPrefix = "b_"
    private static let books = BookRecord.selection(prefix: bookPrefix)

    /// The themes of a story read as `story` or `page`, in their order (a subquery per row on
    /// `story_theme`'s key), written once.
    private static let storyThemes = themes(of: "story")
    private static let pageThemes = themes(of: "page")

    private static func themes(of alias: String) -> String {
        "ARRAY(SELECT theme_id FROM story_theme WHERE story_theme.story_id = \(alias).id ORDER BY position) AS theme_ids"
    }

    /// A row of `story` with its `themes`.
    private static func record(_ row: PostgresRandomAccessRow) throws -> StoryRecord {
        try StoryRecord(
            id: row.value("id"), appID: row.value("app_id"), userID: row.value("user_id"), bookID: row.value("book_id"),
            quotes: StoryQuote.list(stored: row.value("quotes", as: String.self)), content: row.value("content"),
            images: JSONText.strings(row.value("images", as: String.self)) ?? [], isPublic: row.value("is_public"),
            keywords: JSONText.strings(row.value("keywords", as: String.self)) ?? [], themeIDs: row.value("theme_ids"),
            createdAt: row.value("created_at"), updatedAt: row.value("updated_at")
        )
    }
}
