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
package struct RecordingLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private let service: String
    private let recent: RecentLogLines

    package init(label: String, recent: RecentLogLines = .shared) {
        (stream, service, self.recent) = (StreamLogHandler.standardOutput(label: label), label, recent)
    }

    package var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    package var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    package func log(event: LogEvent) {
        stream.log(event: event)
        guard case .string(let requestID)? = event.metadata?["request_id"] ?? stream.metadata["request_id"] else { return }
        let merged = stream.metadata.merging(event.metadata ?? [:]) { $1 }.filter { $0.key != "request_id" }
        recent.append(
            requestID: requestID,
            ServiceLogLine(
                at: GlintDate.string(from: Date()), service: service, level: event.level.rawValue, message: event.message.description,
                metadata: merged.mapValues { "\($0)" }))
    }
}
