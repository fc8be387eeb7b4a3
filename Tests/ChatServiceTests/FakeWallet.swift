import Contracts
import ServiceClients
import ServiceKit
import Synchronization

@testable import ChatService

/// market-svc's wallet as chat-svc uses it, with its documented rules: a spend once per key,
/// `notEnoughCoins` when short (nothing spent), a key given back refunds and can never be spent.
final class FakeWallet: Sendable {
    private struct State {
        var balances: [String: Int] = [:]
        var spends: [String: (user: String, coins: Int)] = [:]
        var returned: Set<String> = []
        var spendCalls = 0
    }

    private let state = Mutex(State())
    let initialBalance: Int

    init(balance: Int) {
        initialBalance = balance
    }

    func balance(_ user: String) -> Int { state.withLock { $0.balances[user] ?? initialBalance } }
    var spendCalls: Int { state.withLock { $0.spendCalls } }
    var returnedKeys: Set<String> { state.withLock { $0.returned } }

    func setBalance(_ user: String, _ coins: Int) { state.withLock { $0.balances[user] = coins } }

    var client: MarketClient {
        var client = MarketClient.unimplemented
        client.spendCoins = { spend, _, _ in
            try self.state.withLock { state in
                state.spendCalls += 1
                guard !state.returned.contains(spend.key) else { throw ServiceError(.conflict, "this purchase was given up") }
                if state.spends[spend.key] != nil { return }
                let balance = state.balances[spend.userID] ?? self.initialBalance
                guard balance >= spend.coins else { throw ServiceError(.notEnoughCoins, "not enough coins") }
                state.balances[spend.userID] = balance - spend.coins
                state.spends[spend.key] = (spend.userID, spend.coins)
            }
        }
        client.returnSpend = { key, _, _ in
            self.state.withLock { state in
                guard state.returned.insert(key).inserted, let spent = state.spends.removeValue(forKey: key) else { return }
                state.balances[spent.user] = (state.balances[spent.user] ?? self.initialBalance) + spent.coins
            }
        }
        return client
    }
}
