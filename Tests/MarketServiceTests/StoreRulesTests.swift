import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

/// The rules market-svc's stores ask inside their transactions, once for both engines.
final class StoreRulesTests: XCTestCase {

    func testOnlyItsWriterChangesAComment() throws {
        let comment = CommentRecord(id: "c", parentID: nil, targetID: "p", creatorID: "alice", content: "hi", createdAt: 1, updatedAt: 1)
        XCTAssertEqual(try CommentRules.changeable(comment, by: "alice"), comment)
        XCTAssertThrowsStoreError(.notPermitted("not your comment"), try CommentRules.changeable(comment, by: "bob"))
        XCTAssertThrowsStoreError(.notFound("no such comment"), try CommentRules.changeable(nil, by: "alice"))
    }

    func testOneOpenOrderPerBuyerAndFilterAndNoneOnceBought() throws {
        let open = OrderRecord(
            id: "o", appID: "a", orderCode: "ord", buyerID: "b", filterID: "f", totalPrice: 100, paidAt: nil, createdAt: 1, updatedAt: 1)
        XCTAssertNil(try OrderRules.open(existing: []))
        XCTAssertEqual(try OrderRules.open(existing: [open]), open)
        var paid = open
        paid.paidAt = 2
        XCTAssertThrowsStoreError(.conflict("already bought"), try OrderRules.open(existing: [open, paid]))
    }

    func testAnOrderedFilterStays() throws {
        XCTAssertNoThrow(try FilterRules.checkDeletable(orders: 0))
        XCTAssertThrowsStoreError(.conflict("a filter with orders cannot be deleted"), try FilterRules.checkDeletable(orders: 1))
    }

    func testASpendHappensOnceNeverBelowZeroAndNotAfterItWasGivenUp() throws {
        XCTAssertEqual(try WalletRules.spend(30, by: "alice", balance: 100, existing: nil), .take(coins: 30, balance: 70))
        XCTAssertEqual(try WalletRules.spend(130, by: "alice", balance: 100, existing: nil), .short)
        let spent = WalletRules.Spent(userID: "alice", coins: 30, returnedAt: nil)
        XCTAssertEqual(try WalletRules.spend(30, by: "alice", balance: 70, existing: spent), .answer(balance: 70))
        XCTAssertThrowsStoreError(.conflict("this purchase was given up"), try WalletRules.spend(30, by: "bob", balance: 70, existing: spent))
        let returned = WalletRules.Spent(userID: "alice", coins: 30, returnedAt: 5)
        XCTAssertThrowsStoreError(.conflict("this purchase was given up"), try WalletRules.spend(30, by: "alice", balance: 100, existing: returned))
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

    func testARepliesToATopLevelCommentOfTheSameTarget() throws {
        let top = CommentRecord(id: "c1", parentID: nil, targetID: "p1", creatorID: "alice", content: "hi", createdAt: 1, updatedAt: 1)
        let reply = CommentRecord(id: "c2", parentID: "c1", targetID: "p1", creatorID: "bob", content: "re", createdAt: 2, updatedAt: 2)
        XCTAssertNoThrow(try CommentRules.checkParent(top, of: reply))
        var elsewhere = top
        elsewhere.targetID = "p2"
        for parent in [nil, reply, elsewhere] {
            XCTAssertThrowsStoreError(.notFound("no such parent comment"), try CommentRules.checkParent(parent, of: reply))
        }
    }

    func testAStoryPointsAtABookOfTheAppAndItsWritersFoldersOnly() throws {
        let story = StoryRecord(
            id: "s", appID: "a", userID: "alice", bookID: "b", quotes: [], content: nil, images: [], isPublic: true, keywords: [],
            themeIDs: ["t1", "t2"], createdAt: 1, updatedAt: 1)
        XCTAssertNoThrow(try StoryRules.checkReferences(of: story, bookFound: true, themeOwners: ["t1": "alice", "t2": "alice"]))
        XCTAssertThrowsStoreError(
            .notFound("no such book"), try StoryRules.checkReferences(of: story, bookFound: false, themeOwners: ["t1": "alice", "t2": "alice"]))
        XCTAssertThrowsStoreError(
            .notFound("no such folder of yours"), try StoryRules.checkReferences(of: story, bookFound: true, themeOwners: ["t1": "alice"]))
        XCTAssertThrowsStoreError(
            .notFound("no such folder of yours"),
            try StoryRules.checkReferences(of: story, bookFound: true, themeOwners: ["t1": "alice", "t2": "bob"]))
    }
}
