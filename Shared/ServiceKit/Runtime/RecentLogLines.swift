import Contracts
import Foundation
import Logging
import Synchronization

/// The last lines of this process's log that carried a request id, so an operator can follow one
/// request through the services (`GET /internal/log/{request_id}` on every process). Bounded: the
/// oldest lines go first. One per process, as the logging system it listens to is.
package final class RecentLogLines: Sendable {
    package static let shared = RecentLogLines(capacity: 20_000)

    private struct Line {
        var requestID: String
        var line: ServiceLogLine
    }

    private let capacity: Int
    private let ring = Mutex<(lines: [Line], next: Int)>(([], 0))

    package init(capacity: Int) {
        self.capacity = capacity
    }

    func append(requestID: String, _ line: ServiceLogLine) {
        ring.withLock { ring in
            if ring.lines.count < capacity {
                ring.lines.append(Line(requestID: requestID, line: line))
            } else {
                ring.lines[ring.next] = Line(requestID: requestID, line: line)
            }
            ring.next = (ring.next + 1) % capacity
        }
    }

    /// The request's lines, oldest first.
    package func lines(of requestID: String) -> [ServiceLogLine] {
        ring.withLock { ring in
            let ordered = ring.lines.count < capacity ? ring.lines[...] : ring.lines[ring.next...] + ring.lines[..<ring.next]
            return ordered.filter { $0.requestID == requestID }.map(\.line)
        }
    }
}

/// Standard output, as before, and each line that carries a `request_id` kept in
/// `RecentLogLines` too: the same lines, at the same level, nothing logged twice to stdout.
/// The logger's metadata is kept here and handed to the stream with each line: the stream's own
/// metadata renders itself anew on every change, and every request sets some (its id) on its
/// logger whether it logs or not — 5% of a service's CPU per request, for lines never written.
package struct RecordingLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private let service: String
    private let recent: RecentLogLines
    package var metadata: Logger.Metadata = [:]

    package init(label: String, recent: RecentLogLines = .shared) {
        (stream, service, self.recent) = (StreamLogHandler.standardOutput(label: label), label, recent)
    }

    package var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:]) { $1 } }
        stream.log(event: event)
        guard case .string(let requestID)? = event.metadata?["request_id"] else { return }
        let rest = (event.metadata ?? [:]).filter { $0.key != "request_id" }
        recent.append(
            requestID: requestID,
            ServiceLogLine(
                at: GlintDate.string(from: Date()), service: service, level: event.level.rawValue, message: event.message.description,
                metadata: rest.mapValues { "\($0)" }))
    }
}
