import NIOCore
import ServiceKit

/// A `multipart/form-data` body (RFC 7578 over RFC 2046 §5.1.1) read as it streams in: each
/// part's header fields, its bytes in pieces, its end. Ours rather than multipart-kit's parser,
/// which indexes a 128-entry table with every header-name byte and so stops the process when a
/// client sends one above 0x7F.
package struct FormDataParser {
    package enum Event: Equatable {
        case header(name: String, value: String)
        case body(ByteBuffer)
        case partEnd
    }

    package struct Malformed: Error {}

    private enum State {
        /// Before the first delimiter (a preamble, ignored).
        case preamble
        /// Just after a delimiter: `--` ends the form, else the line ends and headers follow.
        case boundaryLine
        case headers
        case body
        /// After the closing delimiter (ignored).
        case epilogue
    }

    /// One part's header block at most: a form's headers are a line or two.
    package static let maxHeaderBytes = 16 << 10
    private static let crlf: [UInt8] = [13, 10]
    private static let blankLine: [UInt8] = [13, 10, 13, 10]

    /// CRLF `--` boundary: what ends a part's bytes.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes not yet consumed: an unfinished line or header block, or a body's tail that may be
    /// the start of a delimiter.
    private var pending: [UInt8]

    package init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // A body that opens with its first delimiter has no CRLF before it: one is assumed.
        pending = Self.crlf
    }

    package mutating func feed(_ bytes: ByteBuffer, _ emit: (Event) throws -> Void) throws {
        pending.append(contentsOf: bytes.readableBytesView)
        var index = 0
        defer { pending.removeFirst(index) }
        while index < pending.count {
            switch state {
            case .preamble, .body:
                if let found = Self.search(delimiter, in: pending[...], from: index) {
                    if case .body = state {
                        try emit(.body(ByteBuffer(bytes: pending[index..<found])))
                        try emit(.partEnd)
                    }
                    index = found + delimiter.count
                    state = .boundaryLine
                } else {
                    // The tail may be the first bytes of a delimiter split across reads.
                    let safe = max(index, pending.count - (delimiter.count - 1))
                    if case .body = state, safe > index { try emit(.body(ByteBuffer(bytes: pending[index..<safe]))) }
                    index = safe
                    return
                }
            case .boundaryLine:
                guard let end = Self.search(Self.crlf, in: pending[...], from: index) else {
                    if pending.count - index >= 2, pending[index] == UInt8(ascii: "-"), pending[index + 1] == UInt8(ascii: "-") {
                        state = .epilogue
                        continue
                    }
                    guard pending.count - index <= 256 else { throw Malformed() }
                    return
                }
                let line = pending[index..<end]
                if line.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) {
                    state = .epilogue
                    continue
                }
                // Transport padding (RFC 2046 §5.1.1) and nothing else.
                guard line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { throw Malformed() }
                index = end + 2
                state = .headers
            case .headers:
                if pending.count - index < 2 { return }
                if pending[index] == 13, pending[index + 1] == 10 {
                    // No header fields at all.
                    index += 2
                    state = .body
                    continue
                }
                guard let end = Self.search(Self.blankLine, in: pending[...], from: index) else {
                    guard pending.count - index <= Self.maxHeaderBytes else { throw Malformed() }
                    return
                }
                guard end - index <= Self.maxHeaderBytes else { throw Malformed() }
                for line in Self.lines(pending[index..<end]) { try emit(Self.field(line)) }
                index = end + 4
                state = .body
            case .epilogue:
                index = pending.count
            }
        }
    }

    /// The body ended: a part cut off (its closing delimiter never came) is malformed; a body
    /// with no delimiter at all simply has no parts.
    package func finish() throws {
        switch state {
        case .preamble, .epilogue: return
        case .boundaryLine, .headers, .body: throw Malformed()
        }
    }

    private static func lines(_ block: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = block.startIndex
        while let end = search(crlf, in: block, from: start) {
            lines.append(block[start..<end])
            start = end + 2
        }
        lines.append(block[start...])
        return lines
    }

    /// `name: value`, the name a token (RFC 9110 §5.1) and the value's surrounding blanks dropped.
    private static func field(_ line: ArraySlice<UInt8>) throws -> Event {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[..<colon].allSatisfy(isTokenByte)
        else { throw Malformed() }
        var value = line[(colon + 1)...]
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { value = value.dropFirst() }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value = value.dropLast() }
        return .header(name: String(decoding: line[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: tokenSymbols.contains(byte)
        }
    }

    /// Where `pattern` next starts in `bytes` at or after `start`.
    private static func search(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard let first = pattern.first, bytes.endIndex - start >= pattern.count else { return nil }
        var index = start
        let last = bytes.endIndex - pattern.count
        while index <= last {
            guard let candidate = bytes[index...last].firstIndex(of: first) else { return nil }
            if bytes[candidate..<(candidate + pattern.count)].elementsEqual(pattern) { return candidate }
            index = candidate + 1
        }
        return nil
    }
}
