import Logging
import Outbox
import PostgresStorage
import SQLiteStorage
import ServiceKit
import ServiceLifecycle
import Storage

/// market-svc's stores on one engine: its SQLite file in `DATA_DIR` (the default), or PostgreSQL
/// when `MARKET_DATABASE_URL` names one (replicas on one database, each one's post cache told of
/// the others' writes by `PostgresChangeCounter`).
struct MarketStores: Sendable {
    var posts: any PostStore
    var comments: any CommentStore
    var filters: any FilterStore
    var orders: any OrderStore
    var wallets: any WalletStore
    var books: any BookStore
    var stories: any StoryStore
    var themes: any ThemeStore
    var outbox: any OutboxStore
    /// Commits that changed posts, likes or comments: what the post cache's answers depend on.
    var postChanges: any CommitCounter
    /// Moves `postChanges` at once after this replica committed a change it watches outside the
    /// post stores (hidden content); SQLite's counter sees every commit of the file by itself.
    var postsChangedHere: @Sendable () -> Void
    /// What runs with the service group besides the engine (the listener of those commits).
    var services: [any Service]

    init(_ engine: StoreEngine) throws {
        outbox = engine.outbox
        switch engine {
        case .sqlite(let database):
            let lookups = try SQLiteLookups(beside: database)
            (posts, comments, filters) = (
                SQLitePostStore(database: database, lookups: lookups), SQLiteCommentStore(database: database),
                SQLiteFilterStore(database: database, lookups: lookups)
            )
            (orders, wallets) = (SQLiteOrderStore(database: database, lookups: lookups), SQLiteWalletStore(database: database, lookups: lookups))
            (books, stories, themes) = (
                SQLiteBookStore(database: database), SQLiteStoryStore(database: database), SQLiteThemeStore(database: database)
            )
            // Hidden content too: a hidden comment must leave the kept post answers.
            postChanges = TableChangeCounter.watching(["post", "post_like", "comment", "hidden_content"], in: database)
            postsChangedHere = {}
            services = []
        case .postgres(let pool):
            let changes = PostgresChangeCounter(pool: pool, channel: MarketPostgresMigrations.postChanges)
            (posts, comments) = (PostgresPostStore(pool: pool, postChanges: changes), PostgresCommentStore(pool: pool, postChanges: changes))
            filters = PostgresFilterStore(pool: pool, postChanges: changes)
            (orders, wallets) = (PostgresOrderStore(pool: pool), PostgresWalletStore(pool: pool))
            (books, stories, themes) = (
                PostgresBookStore(pool: pool), PostgresStoryStore(pool: pool, postChanges: changes), PostgresThemeStore(pool: pool)
            )
            postChanges = changes
            postsChangedHere = { changes.bump() }
            services = [changes]
        }
    }

    /// The engine the settings name, its schema migrated.
    static func open(databaseURL: String?, sqlitePath: String, logger: Logger) async throws -> StoreEngine {
        try await StoreEngine.open(
            databaseURL: databaseURL, sqlitePath: sqlitePath, sqlite: MarketMigrations.migrator, postgres: MarketPostgresMigrations.all,
            logger: logger)
    }
}
