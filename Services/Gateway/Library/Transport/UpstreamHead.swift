import NIOCore
import NIOHTTP1
import ServiceKit

/// A service's answer head as it came on the wire: its status, how its body is delimited, and
/// its field lines, kept as bytes. Most answers go on to the client with a few lines dropped and
/// added, written straight from these bytes (`GatewayPolicy.writeClientHead`); `headers` makes
/// strings only for the paths that want NIO's form.
struct UpstreamHead: Sendable {
    enum Body: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
        /// Neither length nor chunks: the body ends when the service closes the connection.
        case untilClose
    }

    enum Scan {
        case incomplete
        case malformed
        /// A head, and how many bytes it took (its blank line included).
        case head(UpstreamHead, length: Int)
    }

    /// Services' heads are a few hundred bytes; a longer one is not an answer of ours.
    static let maxLength = 64 << 10

    var status: HTTPResponseStatus
    var body: Body
    /// Whether the connection may carry another request after this answer.
    var keepAlive: Bool
    /// `name: value\r\n` lines, as they came.
    var lines: ByteBuffer

    /// NIO's form of the same head.
    init(_ head: HTTPResponseHead) {
        status = head.status
        keepAlive = head.isKeepAlive
        let length = head.headers.first(name: "content-length").flatMap(Int.init)
        body = !head.status.mayHaveResponseBody ? .none : length.map { .length($0) } ?? .untilClose
        lines = ByteBuffer()
        for (name, value) in head.headers { lines.writeField(name, value) }
    }

    private init(status: HTTPResponseStatus, body: Body, keepAlive: Bool, lines: ByteBuffer) {
        (self.status, self.body, self.keepAlive, self.lines) = (status, body, keepAlive, lines)
    }

    var headers: HTTPHeaders {
        var headers = HTTPHeaders()
        forEachField { name, value, _ in
            headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }
        return headers
    }

    var http: HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }

    /// The first value of the field `name` (lowercase), if any.
    func value(of name: String) -> String? {
        lines.withUnsafeReadableBytes { HTTP1Syntax.firstValue(of: name, in: $0) }
    }

    /// Each field's name, its value without surrounding whitespace, and its whole line (CRLF included).
    func forEachField(
        _ visit: (_ name: UnsafeRawBufferPointer.SubSequence, _ value: UnsafeRawBufferPointer.SubSequence, _ line: UnsafeRawBufferPointer.SubSequence)
            -> Void
    ) {
        lines.withUnsafeReadableBytes { HTTP1Syntax.forEachField(in: $0, visit) }
    }

    /// Reads a status line and field lines from the start of `buffer` (RFC 9112 §4, §5): CRLF line
    /// ends, no folding; the body's framing as §6.3 decides it for an answer to `method`.
    static func scan(_ buffer: ByteBuffer, method: HTTPMethod) -> Scan {
        buffer.withUnsafeReadableBytes { bytes in
            guard let end = HTTP1Syntax.headEnd(bytes, limit: maxLength) else { return bytes.count >= maxLength ? .malformed : .incomplete }
            // "HTTP/1.x 200 OK\r\n"
            guard end >= 14, bytes.starts(with: "HTTP/1.".utf8), let minor = digit(bytes[7]), minor <= 1, bytes[8] == 0x20,
                let hundreds = digit(bytes[9]), let tens = digit(bytes[10]), let ones = digit(bytes[11]), hundreds >= 1,
                bytes[12] == 0x20 || bytes[12] == 0x0D
            else { return .malformed }
            let code = hundreds * 100 + tens * 10 + ones
            var index = 12
            while index < end, bytes[index] != 0x0A { index += 1 }
            guard bytes[index - 1] == 0x0D else { return .malformed }
            index += 1
            let linesStart = index
            var facts = Facts(keepAlive: minor == 1)
            // Field lines up to the blank line.
            while index < end - 2 {
                let lineStart = index
                while index < end, HTTP1Syntax.isTokenByte(bytes[index]) { index += 1 }
                guard index > lineStart, bytes[index] == UInt8(ascii: ":") else { return .malformed }
                let name = bytes[lineStart..<index]
                index += 1
                let valueStart = index
                // Tabs, printable bytes and obs-text up to CRLF; any other control is not a field's.
                while bytes[index] != 0x0D {
                    guard bytes[index] == 0x09 || bytes[index] >= 0x20, bytes[index] != 0x7F else { return .malformed }
                    index += 1
                }
                guard bytes[index + 1] == 0x0A else { return .malformed }
                guard facts.note(name: name, value: bytes[valueStart..<index]) else { return .malformed }
                index += 2
            }
            let status = HTTPResponseStatus(statusCode: code)
            let body: Body
            if method == .HEAD || code < 200 || code == 204 || code == 304 {
                body = .none
            } else if facts.chunked {
                body = .chunked
            } else if facts.transferEncoded {
                body = .untilClose
            } else if let length = facts.length {
                body = .length(length)
            } else {
                body = .untilClose
            }
            let keepAlive = facts.keepAlive && body != .untilClose && code != 101 && !(facts.transferEncoded && facts.length != nil)
            let lines = buffer.getSlice(at: buffer.readerIndex + linesStart, length: end - 2 - linesStart)!
            return .head(UpstreamHead(status: status, body: body, keepAlive: keepAlive, lines: lines), length: end)
        }
    }

    /// What the framing fields say.
    private struct Facts {
        var keepAlive: Bool
        var length: Int?
        var chunked = false
        var transferEncoded = false

        /// False for a field that makes the answer unreadable (two different lengths, a bad length).
        mutating func note(name: UnsafeRawBufferPointer.SubSequence, value raw: UnsafeRawBufferPointer.SubSequence) -> Bool {
            switch name.count {
            case 14 where name.isASCII(caseInsensitivelyEqualTo: "content-length"):
                let value = raw.trimmingWhitespace()
                guard (1...18).contains(value.count), value.allSatisfy({ (48...57).contains($0) }) else { return false }
                let number = value.reduce(0) { $0 * 10 + Int($1 - 48) }
                if let length, length != number { return false }
                length = number
            case 17 where name.isASCII(caseInsensitivelyEqualTo: "transfer-encoding"):
                transferEncoded = true
                // The last coding decides (RFC 9112 §6.3): chunked, or the body runs to the close.
                let last = raw.split(separator: UInt8(ascii: ",")).last?.trimmingWhitespace()
                chunked = last.map { $0.isASCII(caseInsensitivelyEqualTo: "chunked") } ?? false
            case 10 where name.isASCII(caseInsensitivelyEqualTo: "connection"):
                for option in raw.split(separator: UInt8(ascii: ",")) {
                    let option = option.trimmingWhitespace()
                    if option.isASCII(caseInsensitivelyEqualTo: "close") { keepAlive = false }
                    if option.isASCII(caseInsensitivelyEqualTo: "keep-alive") { keepAlive = true }
                }
            default:
                break
            }
            return true
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (48...57).contains(byte) ? Int(byte - 48) : nil
    }
}

extension BidirectionalCollection<UInt8> {
    func trimmingWhitespace() -> SubSequence {
        let isText: (UInt8) -> Bool = { $0 != 0x20 && $0 != 0x09 }
        guard let first = firstIndex(where: isText), let last = lastIndex(where: isText) else { return self[endIndex...] }
        return self[first...last]
    }
}
