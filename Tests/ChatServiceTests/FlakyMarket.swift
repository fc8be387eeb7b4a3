import Contracts
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

    var client: CoinsClient {
        let inner = wallet.client
        return CoinsClient(
            spend: { spend, appID, requestID in
                switch self.state.withLock({ $0 }) {
                case .up: try await inner.spend(spend, appID, requestID)
                case .down: throw ServiceError.unavailable(.market)
                case .spendAnswerLost:
                    try await inner.spend(spend, appID, requestID)
                    throw ServiceError.unavailable(.market)
                case .spendAnswerLostThenDown:
                    try await inner.spend(spend, appID, requestID)
                    self.set(.down)
                    throw ServiceError.unavailable(.market)
                }
            },
            giveBack: { key, appID, requestID in
                guard self.state.withLock({ $0 }) != .down else { throw ServiceError.unavailable(.market) }
                try await inner.giveBack(key, appID, requestID)
            }
        )
    }
}
