import Contracts

/// What operators read of users beyond what the apps do: searches by id, email or nick, a user's
/// sessions, and the reports by and against them.
protocol UserAdminStore: Sendable {
    /// Users of the app by `mode`, newest first.
    func search(_ text: String, by mode: UserSearchMode, appID: String, limit: Int) async throws -> [UserRecord]
    /// A user's sessions, newest first.
    func sessions(of userID: String, limit: Int) async throws -> [SessionRecord]
    /// Reports the user made, newest first.
    func reports(by userID: String, limit: Int) async throws -> [QueuedReport]
    /// Reports of the user as a target, newest first.
    func reports(against userID: String, appID: String, limit: Int) async throws -> [QueuedReport]
    /// The app's (nil: every app's) accounts, and per day number since `since` (milliseconds) the
    /// accounts made and the users with a session opened or (last) refreshed that day.
    func activity(appID: String?, since: Int64) async throws -> (total: Int, new: [Int64: Int], active: [Int64: Int])
}

/// What an operator's search text is taken for: an id names one user; text with `@` is an
/// email's beginning (the index serves it); anything else is looked for in ids, emails' beginnings
/// and nicks (a nick's substring scans the app's users).
enum UserSearchMode: Sendable, Equatable {
    case id
    case emailPrefix
    case any

    init(_ text: String) {
        self = ObjectID.isValid(text) ? .id : text.contains("@") ? .emailPrefix : .any
    }
}
