import HTTPTypes
import HummingbirdCore
import NIOCore

/// What `ServiceByteFront` is given to write, in order: an answer whole, or one sent in parts.
enum FrontAnswerPart: Sendable {
    case whole(HTTPResponse, ByteBuffer?)
    case start(HTTPResponse, ByteBuffer)
    case part(ByteBuffer)
    case end
}

/// An answer's body as the byte front sends it: gathered while it is small, so that head and body
/// leave in one write with their length; past `gatherLimit` (a file) the part gathered and each
/// one after it are sent as they come, each write awaited.
struct FrontBodyWriter: ResponseBodyWriter {
    static let gatherLimit = 256 << 10

    let head: HTTPResponse
    let send: @Sendable (FrontAnswerPart) async throws -> Void
    private var gathered: ByteBuffer?
    private var streaming = false

    init(head: HTTPResponse, send: @escaping @Sendable (FrontAnswerPart) async throws -> Void) {
        self.head = head
        self.send = send
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        if streaming { return try await send(.part(buffer)) }
        if gathered == nil {
            gathered = buffer
        } else {
            var buffer = buffer
            gathered!.writeBuffer(&buffer)
        }
        guard let part = gathered, part.readableBytes > Self.gatherLimit else { return }
        (gathered, streaming) = (nil, true)
        try await send(.start(head, part))
    }

    /// Trailing fields are not sent: no route of ours has any.
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await send(streaming ? .end : .whole(head, gathered))
    }
}
