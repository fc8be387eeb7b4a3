import Contracts
import ServiceKit
import Synchronization

/// Apps' compatibility flags by app id (auth-svc), cached: sockets without a key are judged by
/// the room's app on every connect.
final class AppFlagsDirectory: Sendable {
    typealias Lookup = @Sendable (String) async throws -> AppFlags?

    private let lookup: Lookup
    private let ttl: Duration
    private let entries = Mutex<[String: (flags: AppFlags?, expires: ContinuousClock.Instant)]>([:])

    init(ttl: Duration = .seconds(30), lookup: @escaping Lookup) {
        self.ttl = ttl
        self.lookup = lookup
    }

    static func live(_ client: InternalClient) -> AppFlagsDirectory {
        AppFlagsDirectory { appID in
            do {
                return try await client.get(.auth, "/internal/apps/\(appID)", as: AppInfo.self).flags
            } catch let error as ServiceError where error.code == .notFound {
                return nil
            }
        }
    }

    func flags(of appID: String) async throws -> AppFlags? {
        let now = ContinuousClock.now
        if let entry = entries.withLock({ $0[appID] }), entry.expires > now { return entry.flags }
        let flags = try await lookup(appID)
        entries.withLock { entries in
            if entries.count > 10_000 { entries.removeAll() }
            entries[appID] = (flags, now + ttl)
        }
        return flags
    }
}
