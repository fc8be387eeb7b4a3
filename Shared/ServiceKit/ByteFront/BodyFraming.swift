import NIOCore

/// How an HTTP/1.1 message's body is delimited on the wire: the byte fronts' answers (the
/// gateway's to clients, a service's to the gateway) and the gateway's requests to services.
package enum BodyFraming: Equatable {
    /// No body (answers to 1xx, 204, 304; requests without content).
    case none
    /// `content-length`: the parts go as they are.
    case length
    case chunked

    /// A body part as this framing sends it, or the body's end (nil).
    package func frame(_ part: ByteBuffer?, allocator: ByteBufferAllocator) -> ByteBuffer {
        switch self {
        case .none: return allocator.buffer(capacity: 0)
        case .length: return part ?? allocator.buffer(capacity: 0)
        case .chunked: break
        }
        guard var part else { return allocator.buffer(staticString: "0\r\n\r\n") }
        // An empty chunk would end the body.
        guard part.readableBytes > 0 else { return part }
        var chunk = allocator.buffer(capacity: part.readableBytes + 12)
        chunk.writeString(String(part.readableBytes, radix: 16))
        chunk.writeStaticString("\r\n")
        chunk.writeBuffer(&part)
        chunk.writeStaticString("\r\n")
        return chunk
    }
}
