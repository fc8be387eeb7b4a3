import Contracts
import HTTPTypes
import HummingbirdTesting
import NIOCore
import ServiceKit
import TestSupport
import XCTest

@testable import MarketService

final class FilterContractTests: XCTestCase {
    typealias Harness = PostContractTests.Harness
    static let alice = PostContractTests.alice, bob = PostContractTests.bob
    static let summaryKeys: Set<String> = [
        "filter_id", "category", "title", "description", "files", "creator", "is_liked", "like_count", "buyer_count", "createdAt", "updatedAt",
    ]

    static func filter(price: Int = 1000, values: FilterValues = FilterValues(brightness: 0.2, contrast: 1.1, temperature: 6500)) -> FilterRequest {
        FilterRequest(
            category: "film", title: "Warm film", price: price, description: "따뜻한 필름",
            files: ["/data/filters/a.jpg", "/data/filters/b.jpg"], photoMetadata: PhotoMetadata(camera: "iPhone 16", iso: 100), filterValues: values)
    }

    static func call(
        _ client: some TestClientProtocol, _ harness: Harness, _ method: HTTPRequest.Method, _ uri: String, as user: String,
        body: (some Encodable)? = Optional<EmptyAnswer>.none
    ) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: method, headers: try await harness.headers(user, [("content-type", "application/json")]),
            body: body.map { JSONCoding.encode($0) })
    }

    func testFilterDetailKeyByKey() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let created = try await Self.call(client, harness, .post, "/v1/filters", as: Self.alice, body: Self.filter())
            XCTAssertEqual(created.status, .ok, created.body.text)
            let detail = try JSON.object(created.body)
            JSON.assertKeys(detail, Self.summaryKeys.union(["price", "photoMetadata", "filterValues", "is_downloaded", "comments"]))
            XCTAssertEqual(detail["price"] as? Int, 1000)
            XCTAssertEqual(detail["filterValues"] as? [String: Double], ["brightness": 0.2, "contrast": 1.1, "temperature": 6500])
            XCTAssertEqual((detail["photoMetadata"] as? [String: Any])?["camera"] as? String, "iPhone 16")
            XCTAssertEqual(detail["is_downloaded"] as? Bool, true, "the creator has it")
            XCTAssertEqual(detail["is_liked"] as? Bool, false)
            XCTAssertEqual(detail["like_count"] as? Int, 0)
            XCTAssertEqual((detail["comments"] as? [Any])?.count, 0)
            let id = try JSON.string(detail, "filter_id")

            let asBob = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters/\(id)", as: Self.bob).body)
            XCTAssertEqual(asBob["is_downloaded"] as? Bool, false)
            _ = try await Self.call(client, harness, .post, "/v1/filters/\(id)/like", as: Self.bob, body: LikeStatus(likeStatus: true))
            let liked = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters/\(id)", as: Self.bob).body)
            XCTAssertEqual(liked["is_liked"] as? Bool, true)
            XCTAssertEqual(liked["like_count"] as? Int, 1)

            let list = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters?category=film", as: Self.bob).body)
            JSON.assertKeys(list, ["data", "next_cursor"])
            let first = try XCTUnwrap((list["data"] as? [[String: Any]])?.first)
            JSON.assertKeys(first, Self.summaryKeys)
            XCTAssertEqual(first["like_count"] as? Int, 1, "read with the page")
            XCTAssertEqual(first["is_liked"] as? Bool, true)
            let likedByMe = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters/likes/me", as: Self.bob).body)
            XCTAssertEqual((likedByMe["data"] as? [Any])?.count, 1)
            let byLikes = try await Self.call(client, harness, .get, "/v1/filters?order_by=likes", as: Self.bob)
            XCTAssertEqual(byLikes.status, .ok)
            let badOrder = try await Self.call(client, harness, .get, "/v1/filters?order_by=random", as: Self.bob)
            XCTAssertEqual(badOrder.status, .badRequest)
        }
    }

    func testValuesOutOfRangeAndOwnership() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            for values in [
                FilterValues(brightness: 1.5), FilterValues(exposure: -11), FilterValues(contrast: 5), FilterValues(saturation: -0.1),
                FilterValues(temperature: 1000),
            ] {
                let response = try await Self.call(client, harness, .post, "/v1/filters", as: Self.alice, body: Self.filter(values: values))
                XCTAssertEqual(response.status, .badRequest, response.body.text)
            }
            let missing = try await Self.call(
                client, harness, .post, "/v1/filters", as: Self.alice,
                body: FilterRequest(category: "c", title: "t", price: 1, description: "", files: nil, filterValues: FilterValues()))
            XCTAssertEqual(missing.status, .badRequest)
            let id = try JSON.string(
                try JSON.object(try await Self.call(client, harness, .post, "/v1/filters", as: Self.alice, body: Self.filter()).body), "filter_id")
            let hijack = try await Self.call(
                client, harness, .put, "/v1/filters/\(id)", as: Self.bob,
                body: FilterRequest(category: nil, title: "mine", price: nil, description: nil, files: nil, filterValues: nil))
            XCTAssertEqual(hijack.status.code, 445)
            let delete = try await Self.call(client, harness, .delete, "/v1/filters/\(id)", as: Self.bob)
            XCTAssertEqual(delete.status.code, 445)
            let renamed = try await Self.call(
                client, harness, .put, "/v1/filters/\(id)", as: Self.alice,
                body: FilterRequest(category: nil, title: "Renamed", price: nil, description: nil, files: nil, filterValues: nil))
            XCTAssertEqual(try JSON.object(renamed.body)["title"] as? String, "Renamed")
        }
    }

    func testOrdersAndPaidList() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let id = try JSON.string(
                try JSON.object(try await Self.call(client, harness, .post, "/v1/filters", as: Self.alice, body: Self.filter(price: 1500)).body),
                "filter_id")
            let own = try await Self.call(client, harness, .post, "/v1/orders", as: Self.alice, body: OrderRequest(filterID: id, totalPrice: 1500))
            XCTAssertEqual(own.status, .badRequest, "the creator cannot buy their own filter")
            let wrongPrice = try await Self.call(
                client, harness, .post, "/v1/orders", as: Self.bob, body: OrderRequest(filterID: id, totalPrice: 100))
            XCTAssertEqual(wrongPrice.status, .badRequest)
            let order = try await Self.call(client, harness, .post, "/v1/orders", as: Self.bob, body: OrderRequest(filterID: id, totalPrice: 1500))
            XCTAssertEqual(order.status, .ok, order.body.text)
            let orderObject = try JSON.object(order.body)
            JSON.assertKeys(orderObject, ["order_id", "order_code", "total_price", "createdAt", "updatedAt"])
            let code = try JSON.string(orderObject, "order_code")
            let again = try JSON.object(
                try await Self.call(client, harness, .post, "/v1/orders", as: Self.bob, body: OrderRequest(filterID: id, totalPrice: 1500)).body)
            XCTAssertEqual(again["order_code"] as? String, code, "an unpaid order is reused")

            let lookup = try await client.execute(
                uri: "/internal/orders/\(code)", method: .get, headers: TestEnvironment.fields(app: PostContractTests.appID))
            XCTAssertEqual(try JSON.object(lookup.body)["paid"] as? Bool, false)
            let anyApp = try await client.execute(uri: "/internal/orders/\(code)", method: .get, headers: TestEnvironment.fields(app: nil))
            XCTAssertEqual(try JSON.object(anyApp.body)["app_id"] as? String, PostContractTests.appID, "a webhook knows only the order code")
            let otherApp = try await client.execute(uri: "/internal/orders/\(code)", method: .get, headers: TestEnvironment.fields(app: "app-other"))
            XCTAssertEqual(otherApp.status, .notFound)
            let unpaidList = try await Self.call(client, harness, .get, "/v1/orders", as: Self.bob)
            XCTAssertEqual((try JSON.object(unpaidList.body)["data"] as? [Any])?.count, 0, "only paid orders are listed")

            for _ in 0..<3 {
                let paid = try await client.execute(
                    uri: "/internal/orders/\(code)/paid", method: .post, headers: TestEnvironment.fields(app: PostContractTests.appID))
                XCTAssertEqual(paid.status, .ok, paid.body.text)
            }
            let list = try JSON.object(try await Self.call(client, harness, .get, "/v1/orders", as: Self.bob).body)
            let items = try XCTUnwrap(list["data"] as? [[String: Any]])
            XCTAssertEqual(items.count, 1, "paid once however often it is marked")
            JSON.assertKeys(items[0], ["order_id", "order_code", "paidAt", "createdAt", "updatedAt", "filter"])
            let filter = try XCTUnwrap(items[0]["filter"] as? [String: Any])
            JSON.assertKeys(
                filter, ["id", "category", "title", "description", "files", "price", "creator", "filter_values", "createdAt", "updatedAt"])
            JSON.assertKeys(
                try XCTUnwrap(filter["creator"] as? [String: Any]), ["user_id", "nick", "name", "introduction", "description", "hashTags"])

            let detail = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters/\(id)", as: Self.bob).body)
            XCTAssertEqual(detail["is_downloaded"] as? Bool, true)
            XCTAssertEqual(detail["buyer_count"] as? Int, 1)
            let twice = try await Self.call(client, harness, .post, "/v1/orders", as: Self.bob, body: OrderRequest(filterID: id, totalPrice: 1500))
            XCTAssertEqual(twice.status, .conflict, "buying again")
            let delete = try await Self.call(client, harness, .delete, "/v1/filters/\(id)", as: Self.alice)
            XCTAssertEqual(delete.status, .conflict, "a sold filter stays for its buyers")
        }
    }

    func testHotTrendTodayPicksAndBanners() async throws {
        let harness = try await Harness.make()
        let emptyHarness = try await Harness.make()
        try await emptyHarness.app.contractTest { client in
            let empty = try await Self.call(client, emptyHarness, .get, "/v1/filters/today-filter", as: Self.bob)
            XCTAssertEqual(empty.status, .notFound, "nothing to pick yet")
        }
        try await harness.app.contractTest { client in
            let quiet = try JSON.string(
                try JSON.object(try await Self.call(client, harness, .post, "/v1/filters", as: Self.alice, body: Self.filter()).body), "filter_id")
            let popular = try JSON.string(
                try JSON.object(try await Self.call(client, harness, .post, "/v1/filters", as: Self.bob, body: Self.filter()).body), "filter_id")
            _ = try await Self.call(client, harness, .post, "/v1/filters/\(popular)/like", as: Self.alice, body: LikeStatus(likeStatus: true))

            let hot = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters/hot-trend", as: Self.alice).body)
            JSON.assertKeys(hot, ["data"])
            let ranked = try XCTUnwrap(hot["data"] as? [[String: Any]])
            XCTAssertEqual(ranked.compactMap { $0["filter_id"] as? String }, [popular, quiet])
            let top = try XCTUnwrap(ranked.first)
            JSON.assertKeys(top, Self.summaryKeys)
            XCTAssertEqual(top["is_liked"] as? Bool, true, "per caller, even from the cached ranking")

            let today = try JSON.object(try await Self.call(client, harness, .get, "/v1/filters/today-filter", as: Self.alice).body)
            JSON.assertKeys(today, ["filter_id", "title", "introduction", "description", "files", "createdAt", "updatedAt"])
            XCTAssertEqual(today["filter_id"] as? String, popular)

            let author = try JSON.object(try await Self.call(client, harness, .get, "/v1/users/today-author", as: Self.alice).body)
            JSON.assertKeys(author, ["author", "filters"])
            let who = try XCTUnwrap(author["author"] as? [String: Any])
            JSON.assertKeys(who, ["user_id", "nick", "name", "introduction", "description", "profileImage", "hashTags"])
            XCTAssertEqual(who["user_id"] as? String, Self.bob)
            XCTAssertEqual(who["profileImage"] as? String, "", "never null")
            XCTAssertEqual((author["filters"] as? [[String: Any]])?.compactMap { $0["filter_id"] as? String }, [popular])

            let banners = try JSON.object(try await Self.call(client, harness, .get, "/v1/banners/main", as: Self.alice).body)
            XCTAssertEqual((banners["data"] as? [Any])?.count, 0)
        }
    }

    func testBannerConfiguration() throws {
        let text = #"[{"name":"Spring","imageUrl":"/data/banners/s.png","payload":{"type":"WEBVIEW","value":"https://example.com"}}]"#
        let configuration = try MarketConfiguration(reader: ConfigReader(environment: ["MARKET_BANNERS": text]))
        XCTAssertEqual(configuration.banners.first?.payload.type, "WEBVIEW")
        XCTAssertThrowsError(try MarketConfiguration(reader: ConfigReader(environment: ["MARKET_BANNERS": "{oops"]))) { error in
            XCTAssertEqual((error as? ConfigurationError)?.variable, "MARKET_BANNERS")
        }
        let encoded = try JSON.object(JSONCoding.encode(DataList(data: configuration.banners)))
        let banner = try XCTUnwrap((encoded["data"] as? [[String: Any]])?.first)
        JSON.assertKeys(banner, ["name", "imageUrl", "payload"])
        XCTAssertEqual(banner["payload"] as? [String: String], ["type": "WEBVIEW", "value": "https://example.com"])
    }
}
