import Contracts
import ServiceKit

extension StoryQuote {
    /// A story's quotes as `story.quotes` keeps them, read for every story of every page:
    /// `[{"page":N,"quote":"…"},…]` (either key order, `page` optional) by `JSONScanner`, anything
    /// else through `JSONDecoder` (Foundation's decoding was a tenth of a story page's CPU).
    static func list(stored text: String) -> [StoryQuote] {
        JSONScanner.read(text) { $0.list { $0.quote() } } ?? JSONText.decode(text) ?? []
    }
}

extension JSONScanner {
    /// `{"page":N,"quote":"…"}`, either key order, `page` optional.
    fileprivate mutating func quote() -> StoryQuote? {
        var quote: String?
        var page: Int?
        let read = object { key, scanner in
            switch key {
            case "quote" where quote == nil:
                quote = scanner.string()
                return quote != nil
            case "page" where page == nil:
                page = scanner.integer()
                return page != nil
            default:
                return false
            }
        }
        guard read, let quote else { return nil }
        return StoryQuote(quote: quote, page: page)
    }
}
