import NIOCore
import NIOHTTP1
import ServiceKit

/// A request's head as a service receives it, written once in HTTP/1.1's wire form (the policy's
/// `upstreamHead`): the request line and the field lines. `host` and the body's framing are the
/// connection's to add (`UpstreamRequest.writeHead`). The byte fronts copy the client's lines into
/// it as they came; no path makes strings of headers only to turn them back into bytes.
struct UpstreamRequestHead: Sendable {
    let method: HTTPMethod
    /// The target as the service gets it (chat-svc's replicas are told apart by its session id).
    let uri: String
    /// The request line, then `name: value\r\n` lines.
    private(set) var lines: ByteBuffer
    /// Where the field lines start in `lines`.
    private let fieldsStart: Int
    /// The client's `content-length` is among the fields (then it frames the body): `add(_:_:)`
    /// notes it; whoever adds lines as they came says it.
    var hasLength = false

    /// The request line; `capacity`: the bytes the fields will take, about.
    init(method: HTTPMethod, uri: String, capacity: Int = 0) {
        self.method = method
        self.uri = uri
        // Made at its size: `ByteBuffer()` is a storage the whole process shares, and growing it
        // took and dropped a reference to it from both loops' cores on every request.
        lines = ByteBufferAllocator().buffer(capacity: method.rawValue.utf8.count + uri.utf8.count + 12 + capacity)
        lines.writeString(method.rawValue)
        lines.writeStaticString(" ")
        lines.writeString(uri)
        lines.writeStaticString(" HTTP/1.1\r\n")
        fieldsStart = lines.writerIndex
    }

    mutating func add(_ name: String, _ value: String) {
        if name.utf8.count == 14, name.isASCII(caseInsensitivelyEqualTo: "content-length") { hasLength = true }
        lines.writeField(name, value)
    }

    /// Field lines as the client sent them, CRLF each.
    mutating func add(lines fields: UnsafeRawBufferPointer) {
        lines.writeBytes(fields)
    }

    /// A field line written before (none of them `content-length`).
    mutating func add(line: ByteBuffer) {
        lines.writeImmutableBuffer(line)
    }

    /// The field lines alone, without the request line (where `value(of:)` looks).
    var fieldLines: ByteBuffer {
        lines.getSlice(at: fieldsStart, length: lines.writerIndex - fieldsStart)!
    }

    /// The first value of the field `name` (lowercase), if any.
    func value(of name: String) -> String? {
        fieldLines.withUnsafeReadableBytes { HTTP1Syntax.firstValue(of: name, in: $0) }
    }
}
