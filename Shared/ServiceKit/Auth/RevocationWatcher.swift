import Contracts
import Logging
import ServiceLifecycle

/// Keeps a `RevocationList` current from a `RevocationFeed` for as long as the process runs: a
/// ban reaches every replica within one long poll's answer (the time auth-svc takes to hear of
/// it), not after a cache expires. `banned` runs with the users newly banned (chat-svc closes
/// their sockets); `appsChanged` when an app's keys, mount or settings changed (the gateway
/// forgets the keys it resolved).
package struct RevocationWatcher: Service {
    let list: RevocationList
    let feed: RevocationFeed
    let logger: Logger
    let banned: @Sendable ([RevokedUser]) async -> Void
    let appsChanged: @Sendable () -> Void

    package init(
        list: RevocationList, feed: RevocationFeed, logger: Logger, banned: @escaping @Sendable ([RevokedUser]) async -> Void = { _ in },
        appsChanged: @escaping @Sendable () -> Void = {}
    ) {
        (self.list, self.feed, self.logger, self.banned, self.appsChanged) = (list, feed, logger, banned, appsChanged)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var failures = 0
            var appsRevision: Int64?
            while !Task.isCancelled {
                do {
                    let snapshot = try await feed.next(list.revision)
                    failures = 0
                    // The first answer too: what was resolved before it may be older than it.
                    if appsRevision != snapshot.appsRevision {
                        appsRevision = snapshot.appsRevision
                        appsChanged()
                    }
                    let added = list.replace(with: snapshot)
                    if !added.isEmpty {
                        logger.notice("bans in force now include \(added.count) more user(s)", metadata: ["revision": "\(snapshot.revision)"])
                        await banned(added)
                    }
                } catch is CancellationError {
                    return
                } catch {
                    // auth-svc restarting or unreachable: keep the last set and ask again soon.
                    failures += 1
                    if failures == 1 { logger.warning("cannot hear of bans from auth-svc: \(error)") }
                    try? await Task.sleep(for: .milliseconds(min(2_000, 100 * failures)))
                }
            }
        }
    }
}

extension AccessTokenVerifier {
    /// A verifier that refuses banned users, and the watcher (to run with the service) that
    /// keeps its bans current from `feed`.
    package static func watching(
        jwks: JWKSClient, revocations feed: RevocationFeed, logger: Logger, banned: @escaping @Sendable ([RevokedUser]) async -> Void = { _ in }
    ) -> (verifier: AccessTokenVerifier, watcher: RevocationWatcher, list: RevocationList) {
        let list = RevocationList()
        return (AccessTokenVerifier(jwks: jwks, revocations: list), RevocationWatcher(list: list, feed: feed, logger: logger, banned: banned), list)
    }
}
