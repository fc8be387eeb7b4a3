import NIOCore
import NIOHTTP1
import ServiceKit

extension UpstreamRequest {
    /// The head in HTTP/1.1's wire form with `host`, framed for its body: the client's
    /// `content-length` when it came with one, else the length in hand, chunks for a stream, and
    /// `content-length: 0` for an empty request whose method expects content. (No
    /// `transfer-encoding` of the client's is among the lines: it is hop-by-hop.)
    func writeHead(host: String, to buffer: inout ByteBuffer) -> BodyFraming {
        buffer.writeImmutableBuffer(head.lines)
        buffer.writeField("host", host)
        let framing: BodyFraming
        switch body {
        case _ where head.hasLength:
            framing = .length
        case .none:
            switch head.method {
            case .POST, .PUT, .PATCH: buffer.writeStaticString("content-length: 0\r\n")
            default: break
            }
            framing = .none
        case .bytes(let bytes):
            buffer.writeField("content-length", String(bytes.readableBytes))
            framing = .length
        case .stream:
            buffer.writeStaticString("transfer-encoding: chunked\r\n")
            framing = .chunked
        }
        buffer.writeStaticString("\r\n")
        return framing
    }
}
