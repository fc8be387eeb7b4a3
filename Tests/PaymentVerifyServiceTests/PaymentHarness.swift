import AsyncHTTPClient
import Contracts
import GRDB
import HTTPTypes
import Hummingbird
import PostgresNIO
import SQLiteStorage
import ServiceClients
import ServiceKit
import Storage
import Synchronization
import TestSupport
import XCTest

@testable import PaymentVerifyService

/// payment-verify-svc in process, talking to the PortOne simulator over HTTP with its real
/// client, and to a fake market-svc that keeps orders, paid orders and wallets.
struct PaymentHarness {
    final class Market: Sendable {
        let orders = Mutex<[String: OrderRecordAnswer]>([:])
        /// How many times an order went from unpaid to paid: a grant.
        let paidGrants = Mutex(0)
        let coinGrants = Mutex<[String: Int]>([:])
        /// Order codes made unpaid and coin payments taken back, in the order asked.
        let refunds = Mutex<[String]>([])
        let down = Mutex(false)

        func order(buyer: String, price: Int, app: String = PaymentHarness.appID) -> OrderRecordAnswer {
            let id = ObjectID.generate()
            let order = OrderRecordAnswer(
                orderID: id, appID: app, orderCode: "ord_" + id, buyerID: buyer, filterID: ObjectID.generate(), totalPrice: price, paid: false)
            orders.withLock { $0[order.orderCode] = order }
            return order
        }

        private func available() throws {
            if down.withLock({ $0 }) { throw ServiceError(.unavailable, "market-svc unavailable") }
        }

        var client: MarketClient {
            var client = MarketClient.unimplemented
            client.order = { code, appID, _ in
                try self.available()
                return self.orders.withLock { $0[code] }.flatMap { appID == nil || $0.appID == appID ? $0 : nil }
            }
            client.markPaid = { code, _, _ in
                try self.available()
                guard
                    let order = self.orders.withLock({ orders -> OrderRecordAnswer? in
                        guard var order = orders[code] else { return nil }
                        if !order.paid { self.paidGrants.withLock { $0 += 1 } }
                        order.paid = true
                        orders[code] = order
                        return order
                    })
                else { throw ServiceError.notFound("no such order") }
                let creator = UserInfoFull(
                    userID: PaymentHarness.bob, nick: "bob", profileImage: nil, name: "", introduction: "", description: "", hashTags: [])
                let date = "2024-11-22T07:45:31.693Z"
                return PaidOrderItem(
                    orderID: order.orderID, orderCode: order.orderCode, paidAt: date, createdAt: date, updatedAt: date,
                    filter: .init(
                        id: order.filterID, category: "film", title: "warm", description: "a warm film", files: ["/data/filters/a.jpg"],
                        price: order.totalPrice,
                        creator: creator, filterValues: FilterValues(brightness: 0.1), createdAt: date, updatedAt: date))
            }
            client.grantCoins = { event in
                try self.available()
                let granted = self.coinGrants.withLock { grants in
                    grants[event.impUID] == nil
                        ? {
                            grants[event.impUID] = event.coins; return true
                        }() : false
                }
                let total = self.coinGrants.withLock { $0.values.reduce(0, +) }
                return CoinGrantAnswer(coins: total, granted: granted)
            }
            client.markRefunded = { code, _ in
                try self.available()
                self.orders.withLock { $0[code]?.paid = false }
                self.refunds.withLock { $0.append(code) }
            }
            client.refundCoins = { event in
                try self.available()
                let coins = self.coinGrants.withLock { $0.removeValue(forKey: event.impUID) }
                self.refunds.withLock { $0.append(event.impUID) }
                return CoinRefundAnswer(coins: 0, debited: coins ?? 0, refunded: coins != nil)
            }
            return client
        }
    }

    static let appID = "app-pay"
    static let alice = "6740369b3a36e82f532ec721", bob = "6740369b3a36e82f532ec722"
    static let webhookSecret = "webhook-secret-0123456789"

    let app: Application<RouterResponder<GlintRequestContext>>
    let keys: TestKeys
    let market: Market
    let pg: PortOneSimulator
    let engine: StoreEngine

    /// `marketClient` replaces the fake market-svc (a failing one, say).
    static func make(
        marketClient: MarketClient? = nil, products: [CoinProduct] = [CoinProduct(name: "코인 100개", price: 1000, coins: 100)]
    ) async throws -> PaymentHarness {
        let keys = await TestKeys.make(), market = Market(), pg = try await PortOneSimulator.start()
        let common = TestEnvironment.common(.paymentVerify, dataDirectory: try TestEnvironment.temporaryDirectory())
        let engine: StoreEngine = try await TestEngine.open(
            sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: PaymentMigrations.migrator)) },
            postgres: { pool in
                try await pool.migrate(PaymentPostgresMigrations.all); return StoreEngine.postgres(pool)
            }
        )
        var configuration = PaymentConfiguration()
        configuration.portOne = PortOneSettings(baseURL: pg.url, key: PortOneSimulator.key, secret: PortOneSimulator.secret)
        configuration.webhookSecret = webhookSecret
        configuration.webhookAllowedIPs = ["52.78.100.19"]
        configuration.coinProducts = products
        let dependencies = PaymentVerifyAssembly.Dependencies(
            jwks: JWKSClient { keys.jwks }, portOne: .live(http: .shared, settings: configuration.portOne, logger: TestEnvironment.logger),
            market: marketClient ?? market.client
        )
        let app = try PaymentVerifyAssembly.assemble(
            common: common, configuration: configuration, logger: TestEnvironment.logger, engine: engine,
            dependencies: dependencies
        ).application()
        return PaymentHarness(app: app, keys: keys, market: market, pg: pg, engine: engine)
    }

    func headers(_ user: String = alice, _ extra: [(String, String)] = []) async throws -> HTTPFields {
        TestEnvironment.fields(
            app: Self.appID,
            extra: [("Authorization", try await keys.token(user: user, app: Self.appID)), ("content-type", "application/json")] + extra)
    }

    /// How many rows `sql` (a `SELECT COUNT(*) …`) counts in the service's own store, whichever engine.
    func count(sql: String) async throws -> Int {
        switch engine {
        case .sqlite(let database): try await database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
        case .postgres(let pool): Int(try await pool.read { try await $0.value(Int64.self, PostgresQuery(unsafeSQL: sql), logger: pool.logger) } ?? 0)
        }
    }

    func count(_ table: String) async throws -> Int {
        try await count(sql: "SELECT COUNT(*) FROM \(table)")
    }
}
