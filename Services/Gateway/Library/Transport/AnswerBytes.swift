import NIOCore
import NIOHTTP1
import ServiceKit

/// An answer's head in HTTP/1.1's wire form, written by the byte front where NIO's encoder would
/// otherwise write it, and framed as that encoder frames it: no body for 1xx, 204 and 304; a
/// `content-length` when there is one; chunks otherwise.
enum AnswerBytes {
    /// Writes `head` (its framing headers set as `Framing` says) and returns the framing.
    static func writeHead(_ head: HTTPResponseHead, to buffer: inout ByteBuffer) -> BodyFraming {
        let framing: BodyFraming =
            !head.status.mayHaveResponseBody ? .none : head.headers.contains(name: "content-length") ? .length : .chunked
        buffer.writeStatusLine(head.status)
        for (name, value) in head.headers {
            switch name.utf8.count {
            case 14 where framing != .length && name.isASCII(caseInsensitivelyEqualTo: "content-length"),
                17 where name.isASCII(caseInsensitivelyEqualTo: "transfer-encoding"):
                continue
            default:
                buffer.writeField(name, value)
            }
        }
        if framing == .chunked { buffer.writeStaticString("transfer-encoding: chunked\r\n") }
        buffer.writeStaticString("\r\n")
        return framing
    }
}
