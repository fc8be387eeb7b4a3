/// Text for SQL `LIKE … ESCAPE '\'` (SQLite) or `LIKE` / `ILIKE` (PostgreSQL, whose escape is `\`
/// by default): the user's `%`, `_` and `\` stand for themselves.
package enum LikePattern {
    package static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    /// Any text containing `text`.
    package static func containing(_ text: String) -> String { "%" + escaped(text) + "%" }
}
