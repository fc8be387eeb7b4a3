import NIOPosix

/// Password hashing off the request path: bcrypt at cost 10 takes tens of milliseconds, so it
/// runs on NIO's blocking thread pool; a burst of logins queues there while other requests go on.
package struct PasswordHasher: Sendable {
    package var hash: @Sendable (String) async throws -> String
    package var verify: @Sendable (String, String) async throws -> Bool

    package static func bcrypt(cost: Int, pool: NIOThreadPool = .singleton) -> PasswordHasher {
        PasswordHasher(
            hash: { password in try await pool.runIfActive { Bcrypt.hash(password, cost: cost) } },
            verify: { password, stored in try await pool.runIfActive { Bcrypt.verify(password, against: stored) } }
        )
    }
}
