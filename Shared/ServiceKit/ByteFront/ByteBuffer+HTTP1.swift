import NIOCore
import NIOHTTP1

/// HTTP/1.1's lines as the byte fronts write them (the gateway both ways, services their answers).
extension ByteBuffer {
    /// `HTTP/1.1 200 OK\r\n`; the most answers' lines as they are, no strings made.
    package mutating func writeStatusLine(_ status: HTTPResponseStatus) {
        switch status {
        case .ok: writeStaticString("HTTP/1.1 200 OK\r\n")
        case .created: writeStaticString("HTTP/1.1 201 Created\r\n")
        case .noContent: writeStaticString("HTTP/1.1 204 No Content\r\n")
        default:
            writeStaticString("HTTP/1.1 ")
            writeString(String(status.code))
            writeStaticString(" ")
            writeString(status.reasonPhrase)
            writeStaticString("\r\n")
        }
    }

    /// `name: value\r\n`, in one write: heads are made of these, and each write of a buffer
    /// checks its capacity and uniqueness anew.
    package mutating func writeField(_ name: String, _ value: String) {
        name.withBorrowedUTF8 { name in
            value.withBorrowedUTF8 { value in
                let count = name.count + value.count + 4
                _ = writeWithUnsafeMutableBytes(minimumWritableBytes: count) { out in
                    let valueStart = name.count + 2
                    UnsafeMutableRawBufferPointer(rebasing: out[..<name.count]).copyMemory(from: UnsafeRawBufferPointer(name))
                    out[name.count] = UInt8(ascii: ":")
                    out[name.count + 1] = UInt8(ascii: " ")
                    UnsafeMutableRawBufferPointer(rebasing: out[valueStart..<(valueStart + value.count)]).copyMemory(
                        from: UnsafeRawBufferPointer(value))
                    out[count - 2] = 0x0D
                    out[count - 1] = 0x0A
                    return count
                }
            }
        }
    }
}
