import Crypto
import Foundation
import NIOCore

/// Server-to-client WebSocket frames (RFC 6455 §5.2) written straight into bytes: a server's
/// frames are never masked, so a frame is a header of 2, 4 or 10 bytes and the payload as is,
/// and the same bytes can go to every socket.
package enum WebSocketFrames {
    enum Opcode: UInt8 {
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case pong = 0xA
    }

    /// A final (unfragmented) frame of `payload`.
    static func frame(_ opcode: Opcode, _ payload: some Collection<UInt8>, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: payload.count + 10)
        writeHeader(opcode, length: payload.count, into: &buffer)
        buffer.writeBytes(payload)
        return buffer
    }

    /// A text frame of the Engine.IO packet `<type><text>`, written without building the string.
    package static func text(kind: EnginePacket.Kind, _ text: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        var text = text
        return text.withUTF8 { bytes in
            var buffer = allocator.buffer(capacity: bytes.count + 11)
            writeHeader(.text, length: bytes.count + 1, into: &buffer)
            buffer.writeInteger(48 + kind.rawValue)
            buffer.writeBytes(bytes)
            return buffer
        }
    }

    /// The frame that carries an Engine.IO packet on a WebSocket.
    static func packet(_ packet: EnginePacket, allocator: ByteBufferAllocator) -> ByteBuffer {
        switch packet.payload {
        case .text(let text): self.text(kind: packet.kind, text, allocator: allocator)
        case .binary(let bytes): frame(.binary, bytes, allocator: allocator)
        }
    }

    /// A close frame with its status code (1000 normal, 1002 protocol error, 1009 too big).
    static func close(code: UInt16, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 4)
        writeHeader(.close, length: 2, into: &buffer)
        buffer.writeInteger(code)
        return buffer
    }

    private static func writeHeader(_ opcode: Opcode, length: Int, into buffer: inout ByteBuffer) {
        buffer.writeInteger(0x80 | opcode.rawValue)
        switch length {
        case ..<126:
            buffer.writeInteger(UInt8(length))
        case ...0xFFFF:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
    }

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key` (RFC 6455 §4.2.2).
    package static func accept(key: String) -> String {
        let digest = Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
        return Data(digest).base64EncodedString()
    }
}
