import Contracts
import Foundation
import JWTKit
import TestSupport

/// auth-svc, market-svc and the gateway with a QuoteHub app mounted at `/quotehub`, Sign in with
/// Apple going to the Apple simulator and book search to the Kakao simulator.
struct QuoteHubSuite {
    let suite: AuthAndGateway
    let apple: AppleSimulator
    let kakao: KakaoBookSimulator

    /// `services`: backends beside auth-svc (market-svc at least, for stories).
    static func start(_ extra: [String: String] = [:], with services: [ServiceName] = [.market]) async throws -> QuoteHubSuite {
        let apple = try await AppleSimulator.start(), kakao = try await KakaoBookSimulator.start()
        let teamKey = ES256PrivateKey()
        await apple.registerClient(QuoteHubThroughGatewayTests.clientID, teamID: "TEAM123456", keyID: "KEY1234567", publicKey: teamKey.publicKey)
        let suite = try await AuthAndGateway.start(
            [
                "AUTH_APPLE_KEYS_URL": apple.keysURL, "AUTH_APPLE_TOKEN_URL": apple.tokenURL, "AUTH_APPLE_REVOKE_URL": apple.revokeURL,
                "MARKET_KAKAO_BOOK_URL": kakao.url, "MARKET_KAKAO_REST_KEY": KakaoBookSimulator.restKey,
            ].merging(extra) { $1 }, with: services
        ) { dataDirectory in
            _ = try await QuoteHubThroughGatewayTests.createApp(in: dataDirectory, teamKey: teamKey)
        }
        return QuoteHubSuite(suite: suite, apple: apple, kakao: kakao)
    }

    /// The app's client, as `QuoteHubReplay` drives it.
    var replay: QuoteHubReplay { QuoteHubReplay(suite: suite, apple: apple, clientID: QuoteHubThroughGatewayTests.clientID) }

    func stop() async {
        await suite.stop()
        await apple.stop()
        await kakao.stop()
    }
}
