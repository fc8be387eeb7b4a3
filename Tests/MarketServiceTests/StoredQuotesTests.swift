import Contracts
import Foundation
import ServiceKit
import XCTest

@testable import MarketService

/// `StoryQuote.list(stored:)` reads what either writer stored (JSONWriter: `page` first;
/// Foundation's encoder, which wrote the older rows, in either order) as `JSONDecoder` does.
final class StoredQuotesTests: XCTestCase {
    func testTheStoredShapesReadAsJSONDecoderReadsThem() throws {
        let quotes = [
            StoryQuote(quote: "봄이 와도 장가를 못 간다", page: 12), StoryQuote(quote: "", page: nil), StoryQuote(quote: "쉼표, 중괄호 {} [] : 도", page: -1),
        ]
        let written = JSONText.encode(quotes)
        XCTAssertTrue(written.hasPrefix(#"[{"page":12,"quote":"#), written)
        // Foundation's encoder (older rows) puts the keys in either order, run by run.
        let quoteFirst = #"[{"quote":"봄이 와도 장가를 못 간다","page":12},{"quote":""},{"quote":"쉼표, 중괄호 {} [] : 도","page":-1}]"#
        XCTAssertEqual(StoryQuote.list(stored: written), quotes)
        XCTAssertEqual(StoryQuote.list(stored: quoteFirst), quotes)
        for text in [written, quoteFirst, "[]"] {
            XCTAssertEqual(StoryQuote.list(stored: text), try JSONDecoder().decode([StoryQuote].self, from: Data(text.utf8)), text)
        }
    }

    /// Escapes and spacing are read by the scanner; a `null` page and broken text go through the
    /// decoder, as every shape the scanner does not take.
    func testEscapesSpacingAndBrokenText() throws {
        let escaped = [StoryQuote(quote: "그가 말했다. \"봄\"\n\\ 끝 \u{01} 😀", page: 3)]
        XCTAssertEqual(StoryQuote.list(stored: JSONText.encode(escaped)), escaped)
        XCTAssertEqual(StoryQuote.list(stored: #"[{"quote":"\u00e9\ud83d\ude00\/","page":1}]"#), [StoryQuote(quote: "é😀/", page: 1)])
        XCTAssertEqual(StoryQuote.list(stored: #"[ { "quote" : "띄어 쓴", "page" : null } ]"#), [StoryQuote(quote: "띄어 쓴")])
        for broken in ["", "[", #"[{"quote":"끝나지 않은"#, #"[{"page":1}]"#, #"[{"quote":"a"}]x"#, "{}"] {
            XCTAssertEqual(StoryQuote.list(stored: broken), [], broken)
        }
    }
}
