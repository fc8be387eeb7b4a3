import Contracts

/// Where a process hears of bans: live, a long poll of auth-svc; in auth-svc, its own store; in
/// tests, a closure of the test's making.
package struct RevocationFeed: Sendable {
    /// The bans once the set has moved past `after` (or, after a while, the same revision).
    package var next: @Sendable (_ after: Int64) async throws -> RevocationSnapshot

    package init(next: @escaping @Sendable (_ after: Int64) async throws -> RevocationSnapshot) {
        self.next = next
    }

    package static func live(client: InternalClient) -> RevocationFeed {
        RevocationFeed { after in try await client.call(InternalEndpoints.Auth.revocations, body: RevocationPoll(after: after)) }
    }

    /// No bans ever arrive: the poll waits until the process stops (tests that ban nobody).
    package static let none = RevocationFeed { _ in
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
        throw CancellationError()
    }
}
