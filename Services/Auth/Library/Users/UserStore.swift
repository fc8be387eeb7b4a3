/// Users as other code reads them.
protocol UserStore: Sendable {
    func user(id: String, appID: String) async throws -> UserRecord?
    /// By email, in any case.
    func user(email: String, appID: String) async throws -> UserRecord?
    /// Users of one app by id, for rendering `creator`/`sender` in bulk.
    func users(ids: [String], appID: String) async throws -> [UserRecord]
    /// Nicks containing `nick` (any case), best matches (prefix) first.
    func search(nick: String, appID: String, limit: Int) async throws -> [UserRecord]
    /// Whether a user of the app has this nick (in any case).
    func isNickTaken(_ nick: String, appID: String) async throws -> Bool
    /// How the user signs in: `email`, or the provider of their social identity (`apple`, `kakao`).
    func provider(of user: UserRecord) async throws -> String
}
