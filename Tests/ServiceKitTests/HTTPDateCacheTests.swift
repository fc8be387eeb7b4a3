import ServiceKit
import XCTest

final class HTTPDateCacheTests: XCTestCase {
    func testIMFFixdate() {
        // RFC 9110 §5.6.7's own example.
        XCTAssertEqual(HTTPDateCache.format(784_111_777), "Sun, 06 Nov 1994 08:49:37 GMT")
        XCTAssertEqual(HTTPDateCache.format(0), "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    func testTheCachedValueIsTodaysDate() {
        var cache = HTTPDateCache()
        let before = time(nil)
        let text = cache.now()
        let after = time(nil)
        XCTAssertTrue([HTTPDateCache.format(before), HTTPDateCache.format(after)].contains(text), text)
    }
}
