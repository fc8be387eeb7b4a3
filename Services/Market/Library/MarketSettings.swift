import Contracts
import FileStorage
import Foundation
import ServiceKit
import Storage

/// market-svc's own environment variables.
package enum MarketSettings {
    package static let banners = ConfigVariable(
        "MARKET_BANNERS", default: "[]", "JSON list of main banners: [{\"name\", \"imageUrl\", \"payload\": {\"type\", \"value\"}}]")
    package static let trendSeconds = ConfigVariable(
        "MARKET_TREND_REFRESH_SECONDS", default: "60", "how often hot-trend and today's picks are recomputed")
    package static let postCacheMB = ConfigVariable(
        "MARKET_POST_CACHE_MB", default: "64",
        "memory for rendered posts and feed pages kept for the next reader (0: none); any post, like or comment write empties it"
    )

    package static let kakaoBookURL = ConfigVariable(
        "MARKET_KAKAO_BOOK_URL", default: "https://dapi.kakao.com/v3/search/book", "Kakao's book search (quotehub apps' /book/search)")
    package static let kakaoRestKey = ConfigVariable(
        "MARKET_KAKAO_REST_KEY", default: "", "Kakao REST API key for book search; empty: book search answers 502")

    package static let databaseURL = ConfigVariable.databaseURL("MARKET", service: "market-svc")

    package static var all: [ConfigVariable] { [banners, trendSeconds, postCacheMB, kakaoBookURL, kakaoRestKey, databaseURL] }
}

struct MarketConfiguration: Sendable {
    var banners: [Banner] = []
    var trendRefresh: Duration = .seconds(60)
    var postCacheBytes = 64 << 20
    var kakaoBookURL = "http://127.0.0.1:9/v3/search/book"
    var kakaoRestKey = ""
    /// PostgreSQL instead of the SQLite file.
    var databaseURL: String?
    /// Where uploads are kept: the data folder, or a bucket.
    var files = FileStorageConfiguration.dataFolder

    init() {}

    init(reader: ConfigReader) throws {
        let text = try reader.string(MarketSettings.banners)
        if let banners = try? JSONDecoder().decode([Banner].self, from: Data(text.utf8)), banners.count <= 50 {
            self.banners = banners
        } else {
            banners = try reader.refuse(
                MarketSettings.banners, "must be a JSON list of at most 50 banners {name, imageUrl, payload: {type, value}}", standIn: [])
        }
        trendRefresh = .seconds(try reader.int(MarketSettings.trendSeconds, in: 1...86_400))
        postCacheBytes = try reader.int(MarketSettings.postCacheMB, in: 0...65_536) << 20
        kakaoBookURL = try reader.url(MarketSettings.kakaoBookURL)
        kakaoRestKey = try reader.string(MarketSettings.kakaoRestKey)
        databaseURL = try reader.databaseURL(MarketSettings.databaseURL)
        files = try FileStorageConfiguration(reader: reader)
        try reader.finish()
    }
}
