import GRDB

extension StoryQuery.Scope {
    /// The conditions of a list on a table with `app_id`, `user_id` and `is_public` (stories and
    /// themes alike): the scope within the app, without the reader's hidden users.
    func sqlConditions(appID: String, hidden: HiddenFilter) -> (conditions: [String], arguments: StatementArguments) {
        var conditions = ["app_id = ?"]
        var arguments: StatementArguments = [appID]
        switch self {
        case .everyone:
            conditions.append("is_public = 1")
        case .author(let userID, let privateToo):
            conditions.append(privateToo ? "user_id = ?" : "user_id = ? AND is_public = 1")
            arguments += [userID]
        }
        if !hidden.users.isEmpty {
            conditions.append("user_id NOT IN (SELECT value FROM json_each(?))")
            arguments += [hidden.usersJSON]
        }
        return (conditions, arguments)
    }
}
