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
            guard var scanner = JSONScanner(bytes) else { return nil }
            return scanner.list { $0.quote() }
        } ?? JSONText.decode(text) ?? []
    }
}

extension JSONScanner {
    /// `{"page":N,"quote":"…"}`, either key order, `page` optional.
    fileprivate mutating func quote() -> StoryQuote? {
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
}
