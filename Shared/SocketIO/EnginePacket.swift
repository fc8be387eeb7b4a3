import Foundation

/// An Engine.IO v4 packet: a type and a text or binary payload.
package struct EnginePacket: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        case open = 0
        case close, ping, pong, message, upgrade, noop
    }

    package enum Payload: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    package var kind: Kind
    package var payload: Payload

    package init(_ kind: Kind, _ payload: Payload = .text("")) {
        self.kind = kind
        self.payload = payload
    }

    package static func message(_ text: String) -> EnginePacket { EnginePacket(.message, .text(text)) }
    package static func binary(_ bytes: [UInt8]) -> EnginePacket { EnginePacket(.message, .binary(bytes)) }

    package enum DecodingError: Error, Equatable {
        case empty, unknownType, invalidBase64
    }

    // MARK: WebSocket frames

    /// A text frame is `<type><data>`; a binary frame is a message packet's raw bytes.
    package var webSocketText: String? {
        guard case .text(let text) = payload else { return nil }
        return String(kind.rawValue) + text
    }

    package static func fromWebSocketText(_ frame: String) throws(DecodingError) -> EnginePacket {
        guard let first = frame.utf8.first else { throw .empty }
        guard first >= 48, let kind = Kind(rawValue: first - 48) else { throw .unknownType }
        return EnginePacket(kind, .text(String(frame.dropFirst())))
    }

    // MARK: HTTP long-polling

    static let recordSeparator: Character = "\u{1e}"

    /// Polling carries text only: binary payloads are `b<base64>`.
    package var pollingText: String {
        switch payload {
        case .text(let text): String(kind.rawValue) + text
        case .binary(let bytes): "b" + Data(bytes).base64EncodedString()
        }
    }

    package static func encodePolling(_ packets: [EnginePacket]) -> String {
        packets.map(\.pollingText).joined(separator: String(recordSeparator))
    }

    package static func decodePolling(_ body: String) throws(DecodingError) -> [EnginePacket] {
        var packets: [EnginePacket] = []
        for part in body.split(separator: recordSeparator, omittingEmptySubsequences: false) {
            if part.hasPrefix("b") {
                guard let data = Data(base64Encoded: String(part.dropFirst())) else { throw .invalidBase64 }
                packets.append(.binary(Array(data)))
            } else {
                packets.append(try fromWebSocketText(String(part)))
            }
        }
        return packets
    }
}
