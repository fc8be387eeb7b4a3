import NIOPosix

/// Password hashing off the request path: bcrypt at cost 10 takes tens of milliseconds, so it
/// runs on NIO's blocking thread pool; a burst of logins queues there while other requests go on.
struct PasswordHasher: Sendable {
    var hash: @Sendable (String) async throws -> String
    var verify: @Sendable (String, String) async throws -> Bool

    static func bcrypt(cost: Int, pool: NIOThreadPool = .singleton) -> PasswordHasher {
        PasswordHasher(
            hash: { password in try await pool.runIfActive { Bcrypt.hash(password, cost: cost) } },
            verify: { password, stored in try await pool.runIfActive { Bcrypt.verify(password, against: stored) } }
        )
    }
}
