/// One table of an app's records as `glint app export` writes them and `glint app import` loads
/// them: which rows are the app's, which columns are left out, what import derives afterwards —
/// the one rule, run on either engine by `AppRecords`. The names are the services' constants,
/// never input. Columns are read from the store's schema, so a column a migration adds is
/// exported from then on (the export's documentation is checked against the schema).
package struct ExportedTable: Sendable {
    /// SQLite's name, which is also the records' name in an export.
    package var table: String
    /// Where PostgreSQL names the table differently (`app_user`).
    package var postgresTable: String?
    /// Which rows are the app's: a condition in which `{app}` stands for the app's id (bound,
    /// never spliced) and `{user}` for auth-svc's user table on the engine.
    package var scope: String
    /// Columns each store numbers anew (`seq`) or derives, and references to them.
    package var leftOut: Set<String>
    /// The order rows are written in on PostgreSQL, so that numbers made anew on import keep
    /// their order (SQLite reads in rowid order).
    package var postgresOrder: String?
    /// Statements run after every table of the store is loaded, in the same transaction, with
    /// `{app}`: what the left-out columns held (a room's last message), on SQLite and PostgreSQL.
    package var derive: [String]
    /// Statements that remove what `derive` made for the app before its rows go (SQLite's R*Tree boxes).
    package var underive: [String]

    package init(
        _ table: String, postgresTable: String? = nil, scope: String = "app_id = {app}", leftOut: Set<String> = [],
        postgresOrder: String? = nil, derive: [String] = [], underive: [String] = []
    ) {
        (self.table, self.postgresTable, self.scope, self.leftOut) = (table, postgresTable, scope, leftOut)
        (self.postgresOrder, self.derive, self.underive) = (postgresOrder, derive, underive)
    }

    /// The table's name on an engine.
    package func name(postgres: Bool) -> String { postgres ? postgresTable ?? table : table }

    /// Whether `sql` names the app (binds it).
    package static func namesApp(_ sql: String) -> Bool { sql.contains("{app}") }

    /// `sql` with `{user}` named for the engine and `{app}` as its placeholder (`?1`, `$1`).
    package static func resolve(_ sql: String, postgres: Bool) -> String {
        sql.replacingOccurrences(of: "{user}", with: postgres ? "app_user" : "user")
            .replacingOccurrences(of: "{app}", with: postgres ? "$1" : "?1")
    }
}
