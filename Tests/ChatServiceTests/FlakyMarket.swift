import Contracts
import ServiceClients
import ServiceKit
import Synchronization

@testable import ChatService

/// market-svc as it fails in production, around a `FakeWallet`: up, down (nothing reaches the
/// wallet), losing the answer of a spend that did happen, or that and then going down.
final class FlakyMarket: Sendable {
    enum Mode { case up, down, spendAnswerLost, spendAnswerLostThenDown }

    let wallet: FakeWallet
    private let state = Mutex(Mode.up)

    init(wallet: FakeWallet) {
        self.wallet = wallet
    }

    func set(_ mode: Mode) { state.withLock { $0 = mode } }

    var client: MarketClient {
        let inner = wallet.client
        var client = MarketClient.unimplemented
        client.spendCoins = { spend, appID, requestID in
            switch self.state.withLock({ $0 }) {
            case .up: try await inner.spendCoins(spend, appID, requestID)
            case .down: throw ServiceError.unavailable(.market)
            case .spendAnswerLost:
                try await inner.spendCoins(spend, appID, requestID)
                throw ServiceError.unavailable(.market)
            case .spendAnswerLostThenDown:
                try await inner.spendCoins(spend, appID, requestID)
                self.set(.down)
                throw ServiceError.unavailable(.market)
            }
        }
        client.returnSpend = { key, appID, requestID in
            guard self.state.withLock({ $0 }) != .down else { throw ServiceError.unavailable(.market) }
            try await inner.returnSpend(key, appID, requestID)
        }
        return client
    }
}
