import PostgresStorage
import ServiceKit

extension StoryQuery.Scope {
    /// The conditions of a list on a table with `app_id`, `user_id` and `is_public` (stories and
    /// themes alike), bound in `statement`: the scope within the app, without the reader's hidden users.
    func postgresConditions(appID: String, hidden: HiddenFilter, _ statement: inout PostgresStatement) -> [String] {
        var conditions = ["app_id = \(statement.bind(appID))"]
        switch self {
        case .everyone:
            conditions.append("is_public")
        case .author(let userID, let privateToo):
            conditions.append("user_id = \(statement.bind(userID))" + (privateToo ? "" : " AND is_public"))
        }
        if !hidden.users.isEmpty {
            conditions.append("NOT user_id = ANY(\(statement.bind(Array(hidden.users))))")
        }
        return conditions
    }
}
