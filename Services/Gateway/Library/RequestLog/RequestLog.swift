import Contracts
import Foundation
import ServiceKit
import Synchronization

/// The gateway's request log (issue 36): every request that ended in 4xx or 5xx and one in
/// `sampleEvery` of the rest, in two bounded rings, searchable by admin-svc for as long as
/// `retention` says. Time, app, route pattern, status, latency, the token's subject and the
/// request id: never a body, a token or a query. A request not kept costs one atomic increment.
final class RequestLog: Sendable {
    struct Settings: Sendable, Equatable {
        var errors = 5_000
        var sampled = 1_000
        /// Keep one in this many successful requests (0: none).
        var sampleEvery = 100
        var retention: Duration = .seconds(24 * 3600)
    }

    /// What the transport knows when a request ends (read only for a request kept: the status
    /// alone decides, so a request not kept reads no header).
    struct Ended {
        var method: String
        var route: String
        var start: ContinuousClock.Instant
        var app: AppInfo?
        var requestID: String
        /// The `Authorization` header's value, read only when the entry is kept.
        var authorization: String?
    }

    private struct Kept {
        var entry: RequestLogEntry
        var at: ContinuousClock.Instant
    }

    private let settings: Settings
    private let successes = Atomic<Int>(0)
    private let errors: Mutex<Ring>
    private let samples: Mutex<Ring>

    init(settings: Settings) {
        self.settings = settings
        errors = Mutex(Ring(capacity: settings.errors))
        samples = Mutex(Ring(capacity: settings.sampled))
    }

    func record(status: Int, _ ending: @autoclosure () -> Ended) {
        let failed = status >= 400
        if !failed {
            guard settings.sampleEvery > 0, settings.sampled > 0,
                successes.wrappingAdd(1, ordering: .relaxed).oldValue % settings.sampleEvery == 0
            else { return }
        } else if settings.errors == 0 {
            return
        }
        let ended = ending()
        let now = ContinuousClock.now
        let elapsed = now - ended.start
        let entry = RequestLogEntry(
            at: GlintDate.string(from: Date()), requestId: ended.requestID, method: ended.method, route: ended.route, status: status,
            latencyMs: (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15 * 100).rounded() / 100,
            appId: ended.app?.appID, appName: ended.app?.name, userId: ended.authorization.flatMap(Self.subject), sampled: !failed)
        let kept = Kept(entry: entry, at: now)
        if failed {
            errors.withLock { $0.append(kept) }
        } else {
            samples.withLock { $0.append(kept) }
        }
    }

    /// Newest first, within the retention, each criterion met.
    func search(_ query: RequestLogQuery) -> [RequestLogEntry] {
        let since = ContinuousClock.now - settings.retention
        let matches = { (kept: Kept) -> Bool in
            kept.at >= since && (query.requestId.map { $0 == kept.entry.requestId } ?? true)
                && (query.status.map { $0 == kept.entry.status } ?? true) && (query.appId.map { $0 == kept.entry.appId } ?? true)
                && (query.userId.map { $0 == kept.entry.userId } ?? true)
        }
        let found =
            errors.withLock { $0.newestFirst(where: matches, limit: query.limit) }
            + samples.withLock { $0.newestFirst(where: matches, limit: query.limit) }
        return Array(found.sorted { $0.at > $1.at }.prefix(query.limit).map(\.entry))
    }

    /// The `sub` of a bearer token's payload, if it looks like one of our ids. Not verified: the
    /// services verify tokens; this only says whom the client claimed to be.
    static func subject(of authorization: String) -> String? {
        let token = authorization.hasPrefix("Bearer ") ? authorization.dropFirst(7) : Substring(authorization)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count <= 4096, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any], let sub = object["sub"] as? String,
            ObjectID.isValid(sub)
        else { return nil }
        return sub
    }

    /// A fixed number of entries, the oldest overwritten.
    private struct Ring {
        let capacity: Int
        var entries: [Kept] = []
        var next = 0

        init(capacity: Int) {
            self.capacity = capacity
        }

        mutating func append(_ kept: Kept) {
            guard capacity > 0 else { return }
            if entries.count < capacity {
                entries.append(kept)
            } else {
                entries[next] = kept
            }
            next = (next + 1) % capacity
        }

        func newestFirst(where matches: (Kept) -> Bool, limit: Int) -> [Kept] {
            var found: [Kept] = []
            var index = next
            for _ in 0..<entries.count {
                index = (index - 1 + entries.count) % entries.count
                if matches(entries[index]) {
                    found.append(entries[index])
                    if found.count == limit { break }
                }
            }
            return found
        }
    }
}
