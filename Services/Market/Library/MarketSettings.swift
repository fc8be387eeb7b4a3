import Contracts
import Foundation
import ServiceKit

/// market-svc's own environment variables.
package enum MarketSettings {
    package static let banners = ConfigVariable("MARKET_BANNERS", default: "[]", "JSON list of main banners: [{\"name\", \"imageUrl\", \"payload\": {\"type\", \"value\"}}]")
    package static let trendSeconds = ConfigVariable("MARKET_TREND_REFRESH_SECONDS", default: "60", "how often hot-trend and today's picks are recomputed")

    package static let kakaoBookURL = ConfigVariable("MARKET_KAKAO_BOOK_URL", default: "https://dapi.kakao.com/v3/search/book", "Kakao's book search (quotehub apps' /book/search)")
    package static let kakaoRestKey = ConfigVariable("MARKET_KAKAO_REST_KEY", default: "", "Kakao REST API key for book search; empty: book search answers 502")

    package static var all: [ConfigVariable] { [banners, trendSeconds, kakaoBookURL, kakaoRestKey] }
}

struct MarketConfiguration: Sendable {
    var banners: [Banner] = []
    var trendRefresh: Duration = .seconds(60)
    var kakaoBookURL = "http://127.0.0.1:9/v3/search/book"
    var kakaoRestKey = ""

    init() {}

    init(reader: ConfigReader) throws {
        let text = try reader.string(MarketSettings.banners)
        guard let banners = try? JSONDecoder().decode([Banner].self, from: Data(text.utf8)), banners.count <= 50 else {
            throw ConfigurationError(variable: MarketSettings.banners.name, problem: "must be a JSON list of at most 50 banners {name, imageUrl, payload: {type, value}}")
        }
        self.banners = banners
        trendRefresh = .seconds(try reader.int(MarketSettings.trendSeconds, in: 1...86_400))
        kakaoBookURL = try reader.url(MarketSettings.kakaoBookURL)
        kakaoRestKey = try reader.string(MarketSettings.kakaoRestKey)
    }
}
