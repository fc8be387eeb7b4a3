import XCTest

@testable import ServiceKit

final class ExpiringCacheTests: XCTestCase {
    func testBoundedByTwoGenerationsAndWhatIsUsedStays() {
        let cache = ExpiringCache<String, Int>(maxEntries: 4)
        for (index, key) in ["a", "b", "c"].enumerated() { cache.store(index, for: key, ttl: .seconds(60)) }
        // "c" opened a new generation; "a" and "b" are the previous one. Using "a" keeps it.
        XCTAssertEqual(cache.value(for: "a"), 0)
        cache.store(3, for: "d", ttl: .seconds(60))
        // Full again: the generation of "b" goes; "a" (used), "c" and "d" stay.
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertEqual(cache.values(for: ["a", "b", "c", "d"]), ["a": 0, "c": 2, "d": 3])
        for key in ["e", "f", "g", "h", "i"] { cache.store(9, for: key, ttl: .seconds(60)) }
        XCTAssertEqual(cache.values(for: ["h", "i"]), ["h": 9, "i": 9], "the latest stay")
        XCTAssertLessThanOrEqual(cache.values(for: ["a", "b", "c", "d", "e", "f", "g"]).count, 2, "never more than the bound")
    }

    func testExpiredReplacedAndRemoved() {
        let cache = ExpiringCache<String, Int>(maxEntries: 100)
        cache.store(1, for: "k", ttl: .seconds(60))
        cache.store(2, for: "k", ttl: .seconds(60))
        XCTAssertEqual(cache.value(for: "k"), 2)
        XCTAssertNil(cache.value(for: "k", now: .now + .seconds(61)), "past its time it is not answered")
        cache.store(3, for: "gone", ttl: .milliseconds(0))
        XCTAssertNil(cache.value(for: "gone"))
        for index in 0..<60 { cache.store(index, for: "n\(index)", ttl: .seconds(60)) }
        cache.removeAll()
        XCTAssertEqual(cache.values(for: ["k"] + (0..<60).map { "n\($0)" }), [:], "both generations emptied")
    }
}
