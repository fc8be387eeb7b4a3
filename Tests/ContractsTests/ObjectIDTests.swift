import Contracts
import XCTest

final class ObjectIDTests: XCTestCase {
    func testIdsAre24HexAndUnique() {
        var seen = Set<String>()
        for _ in 0..<50_000 {
            let id = ObjectID.generate()
            XCTAssertTrue(ObjectID.isValid(id), id)
            XCTAssertEqual(id, id.lowercased())
            XCTAssertTrue(seen.insert(id).inserted, "duplicate \(id)")
        }
    }

    func testIdsSortByCreationSecond() {
        let earlier = ObjectID.generate(now: Date(timeIntervalSince1970: 1_700_000_000))
        let later = ObjectID.generate(now: Date(timeIntervalSince1970: 1_700_000_001))
        XCTAssertLessThan(earlier, later)
        XCTAssertEqual(String(earlier.prefix(8)), String(1_700_000_000, radix: 16))
    }

    func testNeighboursDifferInRandomBytes() {
        // Room ids are capabilities: two consecutive ids must not share their random part.
        let first = ObjectID.generate(), second = ObjectID.generate()
        XCTAssertNotEqual(first.dropFirst(8).prefix(10), second.dropFirst(8).prefix(10))
    }

    func testSequentialIdsShareTheProcessBytesAndStayUnique() {
        let ids = (0..<50_000).map { _ in ObjectID.sequential() }
        XCTAssertEqual(Set(ids).count, ids.count)
        XCTAssertTrue(ids.allSatisfy { ObjectID.isValid($0) && $0 == $0.lowercased() })
        XCTAssertEqual(Set(ids.map { $0.dropFirst(8).prefix(10) }).count, 1, "one process, one random part")
        let earlier = ObjectID.sequential(now: Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertEqual(String(earlier.prefix(8)), String(1_700_000_000, radix: 16))
    }

    func testValidation() {
        XCTAssertTrue(ObjectID.isValid("6740369b3a36e82f532ec721"))
        XCTAssertFalse(ObjectID.isValid("6740369b3a36e82f532ec72"))
        XCTAssertFalse(ObjectID.isValid("6740369b3a36e82f532ec72g"))
        XCTAssertFalse(ObjectID.isValid("hot-trend"))
    }
}
