import NIOCore
import NIOHTTP1
import ServiceKit

extension UpstreamRequest {
    /// The head in HTTP/1.1's wire form with `host`, framed for its body (any `transfer-encoding`
    /// of the head's is replaced): the client's
    /// `content-length` when it came with one, else the length in hand, chunks for a stream, and
    /// `content-length: 0` for an empty request whose method expects content.
    func writeHead(host: String, to buffer: inout ByteBuffer) -> BodyFraming {
        buffer.writeString(head.method.rawValue)
        buffer.writeStaticString(" ")
        buffer.writeString(head.uri)
        buffer.writeStaticString(" HTTP/1.1\r\n")
        var hasLength = false
        for (name, value) in head.headers {
            switch name.utf8.count {
            case 14 where name.isASCII(caseInsensitivelyEqualTo: "content-length"): hasLength = true
            // The framing is this writer's to say.
            case 17 where name.isASCII(caseInsensitivelyEqualTo: "transfer-encoding"): continue
            default: break
            }
            buffer.writeField(name, value)
        }
        buffer.writeField("host", host)
        let framing: BodyFraming
        switch body {
        case _ where hasLength:
            framing = .length
        case .none:
            if [.POST, .PUT, .PATCH].contains(head.method) { buffer.writeStaticString("content-length: 0\r\n") }
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
