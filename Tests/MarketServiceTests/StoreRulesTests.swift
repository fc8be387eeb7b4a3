import ServiceKit
import XCTest

@testable import MarketService

/// The rules market-svc's stores ask inside their transactions, once for both engines.
final class StoreRulesTests: XCTestCase {
    private func assertThrows(_ expected: StoreError, _ body: @autoclosure () throws -> some Any, line: UInt = #line) {
        XCTAssertThrowsError(try body(), line: line) { XCTAssertEqual(String(describing: $0), String(describing: expected), line: line) }
    }

    func testOnlyItsWriterChangesAComment() throws {
        let comment = CommentRecord(id: "c", parentID: nil, targetID: "p", creatorID: "alice", content: "hi", createdAt: 1, updatedAt: 1)
        XCTAssertEqual(try CommentRules.changeable(comment, by: "alice"), comment)
        assertThrows(.notPermitted("not your comment"), try CommentRules.changeable(comment, by: "bob"))
        assertThrows(.notFound("no such comment"), try CommentRules.changeable(nil, by: "alice"))
    }

    func testOneOpenOrderPerBuyerAndFilterAndNoneOnceBought() throws {
        let open = OrderRecord(
            id: "o", appID: "a", orderCode: "ord", buyerID: "b", filterID: "f", totalPrice: 100, paidAt: nil, createdAt: 1, updatedAt: 1)
        XCTAssertNil(try OrderRules.open(existing: []))
        XCTAssertEqual(try OrderRules.open(existing: [open]), open)
        var paid = open
        paid.paidAt = 2
        assertThrows(.conflict("already bought"), try OrderRules.open(existing: [open, paid]))
    }

    func testAnOrderedFilterStays() throws {
        XCTAssertNoThrow(try FilterRules.checkDeletable(orders: 0))
        assertThrows(.conflict("a filter with orders cannot be deleted"), try FilterRules.checkDeletable(orders: 1))
    }

    func testASpendHappensOnceNeverBelowZeroAndNotAfterItWasGivenUp() throws {
        XCTAssertEqual(try WalletRules.spend(30, by: "alice", balance: 100, existing: nil), .take(coins: 30, balance: 70))
        XCTAssertEqual(try WalletRules.spend(130, by: "alice", balance: 100, existing: nil), .short)
        let spent = WalletRules.Spent(userID: "alice", coins: 30, returnedAt: nil)
        XCTAssertEqual(try WalletRules.spend(30, by: "alice", balance: 70, existing: spent), .answer(balance: 70))
        assertThrows(.conflict("this purchase was given up"), try WalletRules.spend(30, by: "bob", balance: 70, existing: spent))
        let returned = WalletRules.Spent(userID: "alice", coins: 30, returnedAt: 5)
        assertThrows(.conflict("this purchase was given up"), try WalletRules.spend(30, by: "alice", balance: 100, existing: returned))
    }

    func testASpendIsGivenBackOnceAndOneNeverMadeIsRefusedLater() {
        XCTAssertEqual(WalletRules.giveBack(nil), .tombstone)
        XCTAssertEqual(WalletRules.giveBack(.init(userID: "alice", coins: 30, returnedAt: nil)), .giveBack(userID: "alice", coins: 30))
        XCTAssertEqual(WalletRules.giveBack(.init(userID: "alice", coins: 30, returnedAt: 5)), .nothing)
    }

    func testARefundTakesWhatItsGrantGaveButNoMoreThanTheWalletHolds() {
        XCTAssertEqual(WalletRules.refundDebit(granted: 100, balance: 250), 100)
        XCTAssertEqual(WalletRules.refundDebit(granted: 100, balance: 40), 40)
    }
}
