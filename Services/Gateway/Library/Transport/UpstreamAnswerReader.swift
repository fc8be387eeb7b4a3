import NIOCore
import NIOHTTP1

/// Reads a service's answers from a pooled connection's bytes: the head (`UpstreamHead`), the
/// body's parts as they arrive (chunks decoded) and its end. In place of NIO's client codec,
/// whose parsing into `String` headers, parts and handler calls cost more than the answers' own
/// bytes: a body comes out as slices of what was read, most often in one piece with its head.
struct UpstreamAnswerReader {
    enum Event {
        case head(UpstreamHead)
        case body(ByteBuffer)
        case end
    }

    enum Failure: Error {
        case malformed
        /// Bytes where no answer was due.
        case unexpected
    }

    private enum State {
        /// No request awaits an answer.
        case idle
        case head(HTTPMethod)
        case length(Int)
        case chunkSize
        case chunkData(Int)
        /// The CRLF after a chunk's data.
        case chunkEnd
        case trailers
        case untilClose
    }

    /// A chunk-size line or a trailer line longer than this is not a service's.
    static let maxLineLength = 4 << 10

    private var state = State.idle
    private var pending: ByteBuffer?

    /// A request was sent: what follows is its answer.
    mutating func expect(answerTo method: HTTPMethod) {
        state = .head(method)
    }

    /// Whether the answer being read ends only with the connection.
    var endsAtClose: Bool {
        if case .untilClose = state { return true }
        return false
    }

    mutating func read(_ bytes: ByteBuffer) {
        if pending == nil {
            pending = bytes
        } else {
            var bytes = bytes
            pending!.writeBuffer(&bytes)
        }
    }

    /// The next event the bytes read so far make, or nil until more arrive.
    mutating func next() throws(Failure) -> Event? {
        if case .length(0) = state {
            state = .idle
            return .end
        }
        guard var buffer = pending else { return nil }
        // Taken out while it is read, so that it stays uniquely referenced.
        pending = nil
        defer { if buffer.readableBytes > 0 { pending = buffer } }
        while true {
            switch state {
            case .idle:
                throw .unexpected
            case .head(let method):
                switch UpstreamHead.scan(buffer, method: method) {
                case .incomplete: return nil
                case .malformed: throw .malformed
                case .head(let head, let length):
                    buffer.moveReaderIndex(forwardBy: length)
                    // Interim answers (100-continue) precede the real one.
                    if head.status.code < 200, head.status != .switchingProtocols { continue }
                    switch head.body {
                    case .none: state = .length(0)
                    case .length(let length): state = .length(length)
                    case .chunked: state = .chunkSize
                    case .untilClose: state = .untilClose
                    }
                    return .head(head)
                }
            case .length(0):
                state = .idle
                return .end
            case .length(let remaining):
                guard buffer.readableBytes > 0 else { return nil }
                let part = buffer.readSlice(length: min(remaining, buffer.readableBytes))!
                state = .length(remaining - part.readableBytes)
                return .body(part)
            case .chunkSize:
                guard let line = try Self.line(&buffer) else { return nil }
                let size = try Self.chunkSize(line)
                state = size == 0 ? .trailers : .chunkData(size)
            case .chunkData(let remaining):
                guard buffer.readableBytes > 0 else { return nil }
                let part = buffer.readSlice(length: min(remaining, buffer.readableBytes))!
                state = part.readableBytes == remaining ? .chunkEnd : .chunkData(remaining - part.readableBytes)
                return .body(part)
            case .chunkEnd:
                guard buffer.readableBytes >= 2 else { return nil }
                guard buffer.readInteger(as: UInt16.self) == 0x0D0A else { throw .malformed }
                state = .chunkSize
            case .trailers:
                guard let line = try Self.line(&buffer) else { return nil }
                if line.readableBytes == 0 {
                    state = .idle
                    return .end
                }
            case .untilClose:
                guard buffer.readableBytes > 0 else { return nil }
                return .body(buffer.readSlice(length: buffer.readableBytes)!)
            }
        }
    }

    /// The connection closed: the end of an answer that runs to the close, if one was being read.
    mutating func closed() -> Event? {
        guard endsAtClose else { return nil }
        state = .idle
        return .end
    }

    /// A line without its CRLF, taken from `buffer`; nil while its end has not arrived.
    private static func line(_ buffer: inout ByteBuffer) throws(Failure) -> ByteBuffer? {
        guard let end = buffer.readableBytesView.firstIndex(of: 0x0A) else {
            if buffer.readableBytes > maxLineLength { throw .malformed }
            return nil
        }
        let length = end - buffer.readerIndex
        guard length >= 1, buffer.getInteger(at: end - 1, as: UInt8.self) == 0x0D else { throw .malformed }
        let line = buffer.readSlice(length: length - 1)!
        buffer.moveReaderIndex(forwardBy: 2)
        return line
    }

    /// `1*HEXDIG [ chunk-ext ]` (RFC 9112 §7.1); extensions are ignored.
    private static func chunkSize(_ line: ByteBuffer) throws(Failure) -> Int {
        var size = 0
        var digits = 0
        for byte in line.readableBytesView {
            let value: Int
            switch byte {
            case 0x30...0x39: value = Int(byte - 0x30)
            case 0x41...0x46: value = Int(byte - 0x41 + 10)
            case 0x61...0x66: value = Int(byte - 0x61 + 10)
            case UInt8(ascii: ";"), 0x20, 0x09:
                guard digits > 0 else { throw .malformed }
                return size
            default: throw .malformed
            }
            digits += 1
            // Past 15 digits a size would not fit; no answer of ours is that large.
            guard digits <= 15 else { throw .malformed }
            size = size << 4 | value
        }
        guard digits > 0 else { throw .malformed }
        return size
    }
}
