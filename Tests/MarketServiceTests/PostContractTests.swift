import Contracts
import FileStorage
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SQLiteStorage
import ServiceClients
import ServiceKit
import Storage
import Synchronization
import TestSupport
import XCTest

@testable import MarketService

final class PostContractTests: XCTestCase {
    static let appID = "app-1"
    static let postKeys: Set<String> = [
        "post_id", "category", "title", "price", "content", "content1", "content2", "content3", "content4", "content5",
        "createdAt", "updatedAt", "creator", "files", "likes", "likes2", "buyers", "hashTags", "comments", "geolocation", "is_public",
    ]

    /// market-svc with auth-svc's answers faked: users by id, and who blocked whom.
    struct Harness {
        /// Who blocked whom, and which stories each reader reported, as auth-svc would answer.
        final class Blocks: Sendable {
            let byUser = Mutex<[String: Set<String>]>([:])
            let reportedStories = Mutex<[String: Set<String>]>([:])
        }

        /// geo-svc's side of the outbox: what arrived, and how many deliveries to refuse first.
        final class Geo: Sendable {
            let refusals = FailureCountdown()
            let received = Mutex<[PostLocationEvent]>([])

            func receive(_ event: PostLocationEvent) throws {
                if refusals.take() {
                    throw ServiceError(.unavailable, "geo-svc unavailable")
                }
                received.withLock { $0.append(event) }
            }

            /// The `n`-th event (0-based) once it has arrived; retries take a second or two.
            func event(_ index: Int) async throws -> PostLocationEvent {
                let found = await HTTPProbe.eventually(within: .seconds(15)) { () -> PostLocationEvent? in
                    self.received.withLock { $0.count > index ? $0[index] : nil }
                }
                return try XCTUnwrap(found, "event \(index) never arrived")
            }
        }

        let app: Application<RouterResponder<GlintRequestContext>>
        let keys: TestKeys
        let blocks: Blocks
        let geo: Geo
        /// The service's own store (SQLite, or PostgreSQL when the run sets `GLINT_TEST_ENGINE`).
        let engine: StoreEngine
        let dataDirectory: String

        /// `users` (its users and blocked lists) and `geo` replace the fakes of auth-svc and geo-svc (a failing one, say);
        /// `kakao` is Kakao's book search (by default none: a search fails the test).
        static func make(
            users: AuthClient? = nil, geo geoClient: EventClient<PostLocationEvent>? = nil, kakao: KakaoBookClient? = nil, engine: StoreEngine? = nil,
            files: FileStorageConfiguration = .dataFolder
        ) async throws -> Harness {
            let keys = await TestKeys.make()
            let blocks = Blocks(), geo = Geo()
            let common = TestEnvironment.common(.market, dataDirectory: try TestEnvironment.temporaryDirectory())
            let engine: StoreEngine = if let engine { engine } else { try await openEngine(common) }
            var auth = fakeUsers(blocks)
            auth.hiddenContent = { user, _, _ in
                HiddenContent(
                    userIDs: blocks.byUser.withLock { Array($0[user] ?? []) }, storyIDs: blocks.reportedStories.withLock { Array($0[user] ?? []) }
                )
            }
            if let users { (auth.users, auth.blocked) = (users.users, users.blocked) }
            let dependencies = MarketAssembly.Dependencies(
                auth: auth, jwks: JWKSClient { keys.jwks }, geo: geoClient ?? EventClient { event in try geo.receive(event) },
                kakao: kakao ?? .unimplemented
            )
            var configuration = MarketConfiguration()
            configuration.files = files
            let app = try MarketAssembly.assemble(
                common: common, configuration: configuration, logger: TestEnvironment.logger, engine: engine, dependencies: dependencies
            ).application()
            return Harness(app: app, keys: keys, blocks: blocks, geo: geo, engine: engine, dataDirectory: common.dataDirectory)
        }

        /// The run's engine (`TestEngine`), migrated.
        static func openEngine(_ common: CommonConfiguration) async throws -> StoreEngine {
            try await TestEngine.open(
                sqlite: { StoreEngine.sqlite(try DatabaseFactory.openPool(at: common.databasePath, migrator: MarketMigrations.migrator)) },
                postgres: { pool in
                    try await pool.migrate(MarketPostgresMigrations.all); return StoreEngine.postgres(pool)
                }
            )
        }

        private static func fakeUsers(_ blocks: Blocks) -> AuthClient {
            var client = AuthClient.unimplemented
            client.users = { ids, _, _ in
                Dictionary(
                    uniqueKeysWithValues: ids.map {
                        (
                            $0,
                            UserInfoFull(
                                userID: $0, nick: "nick-" + $0.suffix(4), profileImage: nil, name: "", introduction: "", description: "",
                                hashTags: [])
                        )
                    })
            }
            client.blocked = { user, _, _ in blocks.byUser.withLock { $0[user] ?? [] } }
            return client
        }

        func headers(_ user: String, _ extra: [(String, String)] = []) async throws -> HTTPFields {
            TestEnvironment.fields(
                app: PostContractTests.appID, extra: [("Authorization", try await keys.token(user: user, app: PostContractTests.appID))] + extra)
        }
    }

    static let alice = "6740369b3a36e82f532ec721", bob = "6740369b3a36e82f532ec722"

    func testCreateAnswersThePostShape() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            var request = PostCreateRequest(
                category: "walk", title: " 산책 ", price: 0, content: "오늘 #산책 #dog_walk 좋았다 #산책", longitude: 127.0276, latitude: 37.4979)
            request.content2 = "second"
            let response = try await client.execute(
                uri: "/v1/posts", method: .post,
                headers: try await harness.headers(Self.alice, [("ProductId", "dogwalk"), ("content-type", "application/json")]),
                body: JSONCoding.encode(request))
            XCTAssertEqual(response.status, .ok, response.body.text)
            let post = try JSON.object(response.body)
            JSON.assertKeys(post, Self.postKeys.union(["product_id"]))
            XCTAssertEqual(post["title"] as? String, "산책")
            XCTAssertEqual(post["product_id"] as? String, "dogwalk")
            XCTAssertEqual(post["price"] as? Int, 0)
            XCTAssertEqual(post["content1"] as? String, "")
            XCTAssertEqual(post["content2"] as? String, "second")
            XCTAssertEqual(post["hashTags"] as? [String], ["산책", "dog_walk"])
            XCTAssertEqual(post["is_public"] as? Bool, true)
            XCTAssertEqual(post["geolocation"] as? [String: Double], ["longitude": 127.0276, "latitude": 37.4979])
            for key in ["files", "likes", "likes2", "buyers", "comments"] { XCTAssertEqual((post[key] as? [Any])?.count, 0, key) }
            XCTAssertNotNil(GlintDate.milliseconds(from: try JSON.string(post, "createdAt")))
            let creator = try XCTUnwrap(post["creator"] as? [String: Any])
            JSON.assertKeys(creator, ["user_id", "nick"])
            XCTAssertEqual(creator["user_id"] as? String, Self.alice)

            let fetched = try await client.execute(
                uri: "/v1/posts/\(try JSON.string(post, "post_id"))", method: .get, headers: try await harness.headers(Self.bob))
            XCTAssertEqual(try JSON.object(fetched.body)["title"] as? String, "산책")
        }
    }

    func testValidationAndVisibility() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let headers = try await harness.headers(Self.alice, [("content-type", "application/json")])
            for bad in [
                // `""` is a category (API.md §2); one over 50 characters is not.
                PostCreateRequest(category: String(repeating: "c", count: 51), title: "t", content: "c"),
                PostCreateRequest(category: "c", title: "", content: "c"),
                PostCreateRequest(category: "c", title: "t", price: -1, content: "c"),
                PostCreateRequest(category: "c", title: "t", content: "c", files: ["/etc/passwd"]),
                PostCreateRequest(category: "c", title: "t", content: "c", longitude: 200, latitude: 1),
                PostCreateRequest(category: "c", title: "t", content: "c", longitude: 127),
            ] {
                let response = try await client.execute(uri: "/v1/posts", method: .post, headers: headers, body: JSONCoding.encode(bad))
                XCTAssertEqual(response.status, .badRequest, response.body.text)
            }
            let unauthenticated = try await client.execute(uri: "/v1/posts", method: .get, headers: TestEnvironment.fields(app: Self.appID))
            XCTAssertEqual(unauthenticated.status, .unauthorized)

            let hidden = try await client.execute(
                uri: "/v1/posts", method: .post, headers: headers,
                body: JSONCoding.encode(PostCreateRequest(category: "c", title: "secret", content: "c", isPublic: false)))
            let id = try JSON.string(try JSON.object(hidden.body), "post_id")
            let asOther = try await client.execute(uri: "/v1/posts/\(id)", method: .get, headers: try await harness.headers(Self.bob))
            XCTAssertEqual(asOther.status, .notFound, "a private post is 404 for others")
            let asCreator = try await client.execute(uri: "/v1/posts/\(id)", method: .get, headers: try await harness.headers(Self.alice))
            XCTAssertEqual(asCreator.status, .ok)
            let otherFeed = try await client.execute(uri: "/v1/posts", method: .get, headers: try await harness.headers(Self.bob))
            XCTAssertEqual((try JSON.object(otherFeed.body)["data"] as? [Any])?.count, 0)
            let badLimit = try await client.execute(uri: "/v1/posts?limit=abc", method: .get, headers: try await harness.headers(Self.bob))
            XCTAssertEqual(badLimit.status, .badRequest)
            let badCursor = try await client.execute(uri: "/v1/posts?next=zzz", method: .get, headers: try await harness.headers(Self.bob))
            XCTAssertEqual(badCursor.status, .badRequest)
            let ids = try await client.execute(
                uri: "/internal/users/\(Self.alice)/post-ids", method: .get, headers: TestEnvironment.fields(app: Self.appID))
            XCTAssertEqual(try JSON.object(ids.body) as? [String: [String]], ["user_ids": []], "private posts are not listed on profiles")
        }
    }

    /// 250 posts walked 20 at a time while new ones keep arriving: each exactly once, newest
    /// first, and the walk ends with "0".
    func testPaginationWalkWhileCreating() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            let headers = try await harness.headers(Self.alice, [("content-type", "application/json")])
            var created: [String] = []
            for index in 0..<250 {
                let response = try await client.execute(
                    uri: "/v1/posts", method: .post, headers: headers,
                    body: JSONCoding.encode(PostCreateRequest(category: index % 2 == 0 ? "even" : "odd", title: "post \(index)", content: "")))
                created.append(try JSON.string(try JSON.object(response.body), "post_id"))
            }
            var seen: [String] = []
            var cursor = ""
            var pages = 0
            repeat {
                let page = try JSON.object(
                    try await client.execute(uri: "/v1/posts?limit=20&next=\(cursor)", method: .get, headers: try await harness.headers(Self.bob))
                        .body)
                seen += try XCTUnwrap(page["data"] as? [[String: Any]]).compactMap { $0["post_id"] as? String }
                cursor = try JSON.string(page, "next_cursor")
                pages += 1
                _ = try await client.execute(
                    uri: "/v1/posts", method: .post, headers: headers,
                    body: JSONCoding.encode(PostCreateRequest(category: "even", title: "late \(pages)", content: "")))
            } while cursor != "0" && pages < 100
            XCTAssertEqual(pages, 13)
            XCTAssertEqual(seen, created.reversed(), "every post once, newest first, none of the later ones")
            let even = try JSON.object(
                try await client.execute(uri: "/v1/posts?limit=100&category=even", method: .get, headers: try await harness.headers(Self.bob)).body)
            XCTAssertEqual((even["data"] as? [Any])?.count, 100)
        }
    }

    func testBlockedUsersVanishFromTheBlockersFeed() async throws {
        let harness = try await Harness.make()
        try await harness.app.contractTest { client in
            for author in [Self.alice, Self.bob] {
                _ = try await client.execute(
                    uri: "/v1/posts", method: .post, headers: try await harness.headers(author, [("content-type", "application/json")]),
                    body: JSONCoding.encode(PostCreateRequest(category: "c", title: "by \(author)", content: "")))
            }
            let carol = "6740369b3a36e82f532ec723"
            harness.blocks.byUser.withLock { $0[carol] = [Self.bob] }
            let feed = try JSON.object(try await client.execute(uri: "/v1/posts", method: .get, headers: try await harness.headers(carol)).body)
            let creators = try XCTUnwrap(feed["data"] as? [[String: Any]]).compactMap { ($0["creator"] as? [String: Any])?["user_id"] as? String }
            XCTAssertEqual(creators, [Self.alice])
            let aliceFeed = try JSON.object(
                try await client.execute(uri: "/v1/posts", method: .get, headers: try await harness.headers(Self.alice)).body)
            XCTAssertEqual((aliceFeed["data"] as? [Any])?.count, 2, "only the blocker's view changes")
        }
    }
}
