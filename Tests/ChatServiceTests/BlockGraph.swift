import Synchronization

/// auth-svc's blocks as chat-svc asks for them: whom each user blocked.
final class BlockGraph: Sendable {
    private let edges = Mutex<[String: Set<String>]>([:])

    func block(_ blocked: String, by user: String) {
        edges.withLock { _ = $0[user, default: []].insert(blocked) }
    }

    func blocked(by user: String) -> Set<String> {
        edges.withLock { $0[user] ?? [] }
    }
}
