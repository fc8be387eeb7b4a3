import GRDB
import SQLiteStorage
import ServiceKit

/// `StoryStore` on market-svc's SQLite file.
struct SQLiteStoryStore: StoryStore {
    let database: any DatabaseWriter

    func insert(_ story: StoryRecord) async throws {
        try await database.write { db in
            try Self.checkReferences(db, story)
            try db.execute(
                sql: """
                    INSERT INTO story (id, app_id, user_id, book_id, quotes, content, images, is_public, keywords, search_text, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    story.id, story.appID, story.userID, story.bookID, JSONText.encode(story.quotes), story.content,
                    JSONText.encode(story.images), story.isPublic, JSONText.encode(story.keywords), story.searchText,
                    story.createdAt, story.updatedAt,
                ])
            try Self.setThemes(db, story)
        }
    }

    func update(_ story: StoryRecord) async throws {
        try await database.write { db in
            try Self.checkReferences(db, story)
            try db.execute(
                sql: """
                    UPDATE story SET quotes = ?, content = ?, images = ?, is_public = ?, keywords = ?, search_text = ?, updated_at = ? WHERE id = ?
                    """,
                arguments: [
                    JSONText.encode(story.quotes), story.content, JSONText.encode(story.images), story.isPublic,
                    JSONText.encode(story.keywords), story.searchText, story.updatedAt, story.id,
                ])
            try db.execute(sql: "DELETE FROM story_theme WHERE story_id = ?", arguments: [story.id])
            try Self.setThemes(db, story)
        }
    }

    func delete(_ story: StoryRecord) async throws {
        try await database.write { db in
            try SQLiteCommentStore.deleteComments(db, of: .bookstory, id: story.id)
            try db.execute(sql: "DELETE FROM story WHERE id = ?", arguments: [story.id])
        }
    }

    func story(id: String, appID: String) async throws -> StoryRecord? {
        try await database.read { db in
            try Self.stories(db, db.cachedStatement(sql: "SELECT * FROM story WHERE id = ? AND app_id = ?"), arguments: [id, appID]).first
        }
    }

    func page(_ query: StoryQuery) async throws -> (stories: [StoryRecord], total: Int, books: [String: BookRecord]) {
        var (conditions, arguments) = query.scope.sqlConditions(appID: query.appID, hidden: query.hidden)
        if !query.hidden.stories.isEmpty {
            conditions.append("id NOT IN (SELECT value FROM json_each(?))")
            arguments += [query.hidden.storiesJSON]
        }
        if let keyword = query.keyword {
            conditions.append("instr(search_text, ?) > 0")
            arguments += [keyword]
        }
        if let themeID = query.themeID {
            conditions.append("id IN (SELECT story_id FROM story_theme WHERE theme_id = ?)")
            arguments += [themeID]
        }
        let filter = conditions.joined(separator: " AND ")
        let filterArguments = arguments
        return try await database.read { [arguments = filterArguments] db in
            let total =
                try Self.countedTotal(db, query)
                ?? Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM story WHERE \(filter)"), arguments: arguments) ?? 0
            // Few matches (`StoryQuery.fewMatches`): found from `story_search`'s entries, then sorted.
            let source = total < (query.fewMatches ?? 0) ? "story INDEXED BY story_search" : "story"
            let stories = try Self.stories(
                db,
                db.cachedStatement(
                    sql: """
                        SELECT * FROM \(source) WHERE \(filter) ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?
                        """), arguments: arguments + [query.page.size, query.page.offset])
            return (stories, total, try SQLiteBookStore.books(db, ids: stories.map(\.bookID), appID: query.appID))
        }
    }

    func count(userID: String, appID: String, privateToo: Bool) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM story WHERE user_id = ? AND +app_id = ? AND (is_public = 1 OR ?)
                        """), arguments: [userID, appID, privateToo]) ?? 0
        }
    }

    func removeContent(of userID: String, appID: String) async throws -> [String] {
        try await database.write { db in
            let owned = "SELECT id FROM story WHERE user_id = ? AND app_id = ?"
            var images = try String.fetchAll(db, sql: "SELECT images FROM story WHERE user_id = ? AND app_id = ?", arguments: [userID, appID])
                .flatMap { JSONText.strings($0) ?? [] }
            images += try String.fetchAll(
                db, sql: "SELECT image FROM theme WHERE user_id = ? AND app_id = ? AND image IS NOT NULL", arguments: [userID, appID])
            try db.execute(sql: "DELETE FROM comment WHERE target_type = 'bookstory' AND target_id IN (\(owned))", arguments: [userID, appID])
            // Replies to the account's comments go with them (parent_id cascades).
            try db.execute(sql: "DELETE FROM comment WHERE target_type = 'bookstory' AND creator_id = ? AND app_id = ?", arguments: [userID, appID])
            try db.execute(sql: "DELETE FROM story WHERE user_id = ? AND app_id = ?", arguments: [userID, appID])
            try db.execute(sql: "DELETE FROM theme WHERE user_id = ? AND app_id = ?", arguments: [userID, appID])
            return images
        }
    }

    /// A list's total from `story_count` when it has no keyword or theme: the app's (or the
    /// author's) stories, less the hidden authors' and the hidden stories that would have counted.
    /// Nil when only counting the rows can tell.
    static func countedTotal(_ db: Database, _ query: StoryQuery) throws -> Int? {
        guard query.keyword == nil, query.themeID == nil else { return nil }
        // CROSS JOIN walks the (few) hidden ids first: left to itself the planner may scan the app's stories.
        let hiddenStories = """
            (SELECT COUNT(*) FROM json_each(?) AS hidden CROSS JOIN story ON story.id = hidden.value WHERE app_id = ? AND (is_public = 1 OR ?)
             AND user_id NOT IN (SELECT value FROM json_each(?)) AND (? IS NULL OR user_id = ?))
            """
        switch query.scope {
        case .everyone:
            return try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COALESCE((SELECT public FROM story_count WHERE app_id = ? AND user_id = ''), 0)
                             - COALESCE((SELECT SUM(public) FROM story_count WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))), 0)
                             - \(hiddenStories)
                        """),
                arguments: [
                    query.appID, query.appID, query.hidden.usersJSON,
                    query.hidden.storiesJSON, query.appID, false, query.hidden.usersJSON, nil, nil,
                ])
        case .author(let userID, let privateToo):
            if query.hidden.users.contains(userID) { return 0 }
            return try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COALESCE((SELECT CASE WHEN ? THEN total ELSE public END FROM story_count WHERE app_id = ? AND user_id = ?), 0) - \(hiddenStories)
                        """),
                arguments: [
                    privateToo, query.appID, userID,
                    query.hidden.storiesJSON, query.appID, privateToo, query.hidden.usersJSON, userID, userID,
                ])
        }
    }

    /// The stories `statement` selects (rows of `story`) with their themes, in its order.
    static func stories(_ db: Database, _ statement: Statement, arguments: StatementArguments) throws -> [StoryRecord] {
        var stories = try Row.decodeAll(statement, arguments: arguments) { StoryRecord(row: $0, themeIDs: []) }
        guard !stories.isEmpty else { return [] }
        var themes: [String: [String]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT story_id, theme_id FROM story_theme WHERE story_id IN (SELECT value FROM json_each(?)) ORDER BY position
                    """), arguments: [JSONText.encode(stories.map(\.id))])
        {
            themes[row[0], default: []].append(row[1])
        }
        for index in stories.indices { stories[index].themeIDs = themes[stories[index].id] ?? [] }
        return stories
    }

    private static func checkReferences(_ db: Database, _ story: StoryRecord) throws {
        let book =
            try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM book WHERE id = ? AND app_id = ?", arguments: [story.bookID, story.appID]) ?? false
        var owners: [String: String] = [:]
        if !story.themeIDs.isEmpty {
            for row in try Row.fetchAll(
                db, sql: "SELECT id, user_id FROM theme WHERE id IN (SELECT value FROM json_each(?)) AND app_id = ?",
                arguments: [JSONText.encode(story.themeIDs), story.appID])
            {
                owners[row["id"]] = row["user_id"]
            }
        }
        try StoryRules.checkReferences(of: story, bookFound: book, themeOwners: owners)
    }

    private static func setThemes(_ db: Database, _ story: StoryRecord) throws {
        for (position, themeID) in story.themeIDs.enumerated() {
            try db.execute(
                sql: "INSERT INTO story_theme (story_id, theme_id, position, created_at) VALUES (?, ?, ?, ?)",
                arguments: [story.id, themeID, position, story.createdAt])
        }
    }
}
