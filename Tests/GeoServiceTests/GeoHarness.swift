import Contracts
import GRDB
import HTTPTypes
import Hummingbird
import SQLiteStorage
import ServiceClients
import ServiceKit
import Synchronization
import TestSupport
import XCTest

@testable import GeoService

/// geo-svc in process, with market-svc's batch rendering faked (it records what it was asked).
struct GeoHarness {
    /// market-svc's side: the ids and token of each batch call, and posts the caller may not see.
    final class Market: Sendable {
        let calls = Mutex<[(ids: [String], authorization: String, appID: String)]>([])
        let hidden = Mutex<Set<String>>([])

        var posts: MarketClient {
            var client = MarketClient.unimplemented
            client.posts = { ids, authorization, appID, _ in
                self.calls.withLock { $0.append((ids, authorization, appID)) }
                let hidden = self.hidden.withLock { $0 }
                return ids.filter { !hidden.contains($0) }.map { id in
                    PostAnswer(
                        postID: id, productID: nil, category: "c", title: "post " + id, price: 0, content: "", contents: [],
                        createdAt: "2024-11-22T07:45:31.693Z", updatedAt: "2024-11-22T07:45:31.693Z",
                        creator: UserInfo(userID: GeoHarness.alice, nick: "alice", profileImage: nil), files: [], likes: [], likes2: [],
                        buyers: [], hashTags: [], comments: [], geolocation: Geolocation(longitude: 127, latitude: 37.5), isPublic: true)
                }
            }
            return client
        }
    }

    static let appID = "app-geo", otherApp = "app-other"
    static let alice = "6740369b3a36e82f532ec721", bob = "6740369b3a36e82f532ec722"

    let app: Application<RouterResponder<GlintRequestContext>>
    let keys: TestKeys
    let market: Market
    let nearby: NearbyService

    /// `marketClient` replaces the fake market-svc (a failing one, say).
    static func make(
        geocoder: ReverseGeocoder = ReverseGeocoder(unavailable: "reverse geocoding is not configured on this server"),
        marketClient: MarketClient? = nil
    ) async throws -> GeoHarness {
        let keys = await TestKeys.make(), market = Market()
        let common = TestEnvironment.common(.geo, dataDirectory: try TestEnvironment.temporaryDirectory())
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: GeoMigrations.migrator)
        let app = try GeoAssembly.assemble(
            common: common, logger: TestEnvironment.logger, database: database,
            dependencies: .init(jwks: JWKSClient { keys.jwks }, market: marketClient ?? market.posts, geocoder: geocoder)
        ).application()
        return GeoHarness(app: app, keys: keys, market: market, nearby: NearbyService(store: SQLiteLocationStore(database: database)))
    }

    func headers(_ user: String = alice, app: String = appID, _ extra: [(String, String)] = []) async throws -> HTTPFields {
        TestEnvironment.fields(app: app, extra: [("Authorization", try await keys.token(user: user, app: app))] + extra)
    }

    /// The geocoder over the shared boundary file, loaded once for the whole test run.
    static let boundaries: Result<ReverseGeocoder, any Error> = Result {
        guard let path = GeoSettings.shippedBoundaries else { throw ServiceError(.unavailable, "geo-svc's resource bundle has no boundary file") }
        return ReverseGeocoder(index: RegionIndex(try BoundaryFile.read(path: path)))
    }
}
