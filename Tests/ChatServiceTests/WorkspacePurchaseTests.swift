import Contracts
import FileStorage
import Foundation
import HummingbirdTesting
import NIOCore
import SQLiteStorage
import ServiceClients
import ServiceKit
import TestSupport
import XCTest

@testable import ChatService

/// Buying a workspace when market-svc fails at the wrong moment: coins are never kept for a
/// workspace that does not exist, and never spent twice for one that does.
final class WorkspacePurchaseTests: XCTestCase {
    typealias H = ChatHarness
    typealias W = WorkspaceFixtures

    func testASpendWhoseAnswerWasLostIsGivenBackAndTheNameFreed() async throws {
        let wallet = FakeWallet(balance: 100)
        let market = FlakyMarket(wallet: wallet)
        let harness = try await H.make(coinsClient: market.client)
        try await harness.app.contractTest { client in
            let api = WorkspaceTestClient(client: client, harness: harness)
            market.set(.spendAnswerLost)
            try await api.expect("E99", .post, "/v1/workspaces", as: H.alice, multipart: W.workspaceForm("라운지"), "market-svc's answer lost")
            XCTAssertEqual(wallet.balance(H.alice), 100, "the spend was given back")
            XCTAssertEqual(wallet.returnedKeys.count, 1)
            market.set(.down)
            try await api.expect("E99", .post, "/v1/workspaces", as: H.alice, multipart: W.workspaceForm("둘째"), "market-svc down")
            let none = try await api.array(.get, "/v1/workspaces", as: H.alice)
            XCTAssertEqual(none.count, 0, "nothing created")
            market.set(.up)
            _ = try await api.createWorkspace("라운지", as: H.alice)
            XCTAssertEqual(wallet.balance(H.alice), 50, "paid once, for the workspace that exists")
        }
    }

    func testPurchasesLeftHalfWayAreSweptOnceMarketIsBack() async throws {
        let wallet = FakeWallet(balance: 100)
        let market = FlakyMarket(wallet: wallet)
        let directory = try TestEnvironment.temporaryDirectory()
        let database = try DatabaseFactory.openPool(at: directory + "/chat.sqlite", migrator: ChatMigrations.migrator)
        let lookups = try SQLiteLookups(beside: database)
        let store = SQLiteWorkspaceStore(database: database, lookups: lookups)
        let covers = FileStore(backend: LocalFileBackend(dataDirectory: directory), service: .chat, area: "workspaces")
        let service = WorkspaceService(
            workspaces: store, channels: SQLiteChannelStore(database: database, lookups: lookups),
            renderer: WorkspaceRenderer(members: .unimplemented),
            market: market.client, covers: covers, cost: 50, logger: TestEnvironment.logger
        )
        let alice = AuthenticatedUser(userID: H.alice, appID: H.openApp, sessionID: "s", expiresAt: .distantFuture)
        let image = MultipartForm.Part(name: "image", filename: "a.png", body: ByteBuffer(bytes: W.png))

        // The spend lands but its answer is lost, and market-svc is gone before it can be given back.
        market.set(.spendAnswerLostThenDown)
        do {
            _ = try await service.create(alice, name: "반쯤", description: nil, image: image, requestID: "r1")
            XCTFail("created without an answer from market-svc")
        } catch let error as ServiceError {
            XCTAssertEqual(error.code, .unavailable)
        }
        XCTAssertEqual(wallet.balance(H.alice), 50, "spent, not yet given back")
        let empty = try await store.workspaces(of: H.alice, appID: H.openApp)
        XCTAssertEqual(empty.count, 0, "a pending workspace is invisible")
        let pending = try await store.pending(before: GlintDate.nowMilliseconds() + 1, limit: 10)
        XCTAssertEqual(pending.count, 1)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory + "/files/workspaces").count, 1, "its cover is kept until it is given up")

        let whileDown = try await service.giveUpAbandoned(before: GlintDate.nowMilliseconds() + 1)
        XCTAssertEqual(whileDown, 1)
        let stillPending = try await store.pending(before: GlintDate.nowMilliseconds() + 1, limit: 10)
        XCTAssertEqual(stillPending.count, 1, "nothing is dropped while the coins cannot be given back")
        market.set(.up)
        let recent = try await service.giveUpAbandoned(before: GlintDate.nowMilliseconds() - 60_000)
        XCTAssertEqual(recent, 0, "purchases still within their request are left alone")
        let swept = try await service.giveUpAbandoned(before: GlintDate.nowMilliseconds() + 1)
        XCTAssertEqual(swept, 1)
        XCTAssertEqual(wallet.balance(H.alice), 100, "given back")
        let gone = try await store.pending(before: GlintDate.nowMilliseconds() + 1, limit: 10)
        XCTAssertEqual(gone.count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory + "/files/workspaces").count, 0, "and its cover removed")
        _ = try await service.create(alice, name: "반쯤", description: nil, image: image, requestID: "r2")
        XCTAssertEqual(wallet.balance(H.alice), 50, "the name is free again and paid once")
    }
}
