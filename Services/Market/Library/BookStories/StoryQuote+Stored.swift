import Contracts
import ServiceKit

extension StoryQuote {
    /// A story's quotes as `story.quotes` keeps them, read for every story of every page: cut
    /// straight out of `[{"page":N,"quote":"…"},…]` (either key order, `page` optional) when no
    /// quote holds an escape, else through `JSONDecoder` (Foundation's decoding was a tenth of a
    /// story page's CPU).
    static func list(stored text: String) -> [StoryQuote] {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = QuoteScanner(bytes: bytes)
            return scanner.quotes()
        } ?? JSONText.decode(text) ?? []
    }
}

/// The stored quotes' one shape, byte by byte; nil at anything else.
private struct QuoteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func quotes() -> [StoryQuote]? {
        guard !bytes.contains(UInt8(ascii: "\\")), take("[") else { return nil }
        var quotes: [StoryQuote] = []
        if take("]") { return index == bytes.count ? quotes : nil }
        repeat {
            guard let quote = object() else { return nil }
            quotes.append(quote)
        } while take(",")
        return take("]") && index == bytes.count ? quotes : nil
    }

    private mutating func object() -> StoryQuote? {
        guard take("{") else { return nil }
        var quote: String?
        var page: Int?
        repeat {
            switch string() {
            case "quote"?:
                guard take(":"), quote == nil, let text = string() else { return nil }
                quote = text
            case "page"?:
                guard take(":"), page == nil, let number = integer() else { return nil }
                page = number
            default:
                return nil
            }
        } while take(",")
        guard take("}"), let quote else { return nil }
        return StoryQuote(quote: quote, page: page)
    }

    private mutating func string() -> String? {
        guard take("\""), let close = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        defer { index = close + 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<close]), as: UTF8.self)
    }

    private mutating func integer() -> Int? {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
