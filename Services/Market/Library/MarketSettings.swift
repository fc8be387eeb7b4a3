import Contracts
import Foundation
import ServiceKit

/// market-svc's own environment variables.
package enum MarketSettings {
    package static let banners = ConfigVariable("MARKET_BANNERS", default: "[]", "JSON list of main banners: [{\"name\", \"imageUrl\", \"payload\": {\"type\", \"value\"}}]")
    package static let trendSeconds = ConfigVariable("MARKET_TREND_REFRESH_SECONDS", default: "60", "how often hot-trend and today's picks are recomputed")

    package static var all: [ConfigVariable] { [banners, trendSeconds] }
}

struct MarketConfiguration: Sendable {
    var banners: [Banner] = []
    var trendRefresh: Duration = .seconds(60)

    init() {}

    init(reader: ConfigReader) throws {
        let text = try reader.string(MarketSettings.banners)
        guard let banners = try? JSONDecoder().decode([Banner].self, from: Data(text.utf8)), banners.count <= 50 else {
            throw ConfigurationError(variable: MarketSettings.banners.name, problem: "must be a JSON list of at most 50 banners {name, imageUrl, payload: {type, value}}")
        }
        self.banners = banners
        trendRefresh = .seconds(try reader.int(MarketSettings.trendSeconds, in: 1...86_400))
    }
}
