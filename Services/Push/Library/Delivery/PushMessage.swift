import Foundation
import ServiceKit

/// What a notification shows and carries. Both providers cap a payload at 4 KB; the text and
/// data are kept well inside it, leaving room for the envelope.
struct PushMessage: Codable, Sendable, Equatable {
    var title: String
    var body: String
    var data: [String: String]

    static let maxPayloadBytes = 3_500

    /// Refuses what would not fit (400), for pushes the API caller composed.
    func validated() throws -> PushMessage {
        guard !title.isEmpty || !body.isEmpty else { throw ServiceError.badRequest("title or body required") }
        guard data.count <= 50, payloadBytes <= Self.maxPayloadBytes else {
            throw ServiceError(.payloadTooLarge, "notification too large: title, body and data must fit in \(Self.maxPayloadBytes) bytes")
        }
        return self
    }

    /// Shortens the body until the message fits (chat messages may be long).
    func fitted() -> PushMessage {
        var message = self
        while message.payloadBytes > Self.maxPayloadBytes, !message.body.isEmpty {
            message.body = String(message.body.prefix(message.body.count * 3 / 4)) + "…"
            if let content = message.data["content"], content.count > message.body.count { message.data["content"] = message.body }
        }
        return message
    }

    var payloadBytes: Int {
        title.utf8.count + body.utf8.count + data.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 }
    }
}
