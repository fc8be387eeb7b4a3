import ServiceKit

/// The wallet's rules, whatever engine keeps it: a spend happens once per key and never below
/// zero, a spend given back (or given up before it happened) is refused afterwards, and a refund
/// takes back what its grant gave, never more than the wallet holds. Each store reads the balance
/// and the key's row (locked), asks, and writes what the answer says.
enum WalletRules {
    /// A spend recorded under a key.
    struct Spent: Sendable {
        var userID: String
        var coins: Int
        var returnedAt: Int64?
    }

    enum Spend: Equatable, Sendable {
        /// The key's spend happened already: answer the balance, change nothing.
        case answer(balance: Int)
        /// Not enough coins.
        case short
        /// Record the spend and take `coins`, leaving `balance`.
        case take(coins: Int, balance: Int)
    }

    static func spend(_ coins: Int, by userID: String, balance: Int, existing: Spent?) throws -> Spend {
        if let existing {
            guard existing.returnedAt == nil, existing.userID == userID else { throw StoreError.conflict("this purchase was given up") }
            return .answer(balance: balance)
        }
        return balance >= coins ? .take(coins: coins, balance: balance - coins) : .short
    }

    enum GiveBack: Equatable, Sendable {
        /// No spend under the key: record it as given back, so a spend arriving late is refused.
        case tombstone
        /// Given back already.
        case nothing
        /// Mark it returned and give `coins` back to `userID`.
        case giveBack(userID: String, coins: Int)
    }

    static func giveBack(_ existing: Spent?) -> GiveBack {
        guard let existing else { return .tombstone }
        return existing.returnedAt == nil ? .giveBack(userID: existing.userID, coins: existing.coins) : .nothing
    }

    /// What a refund takes from a wallet holding `balance` for a grant of `granted` coins.
    static func refundDebit(granted: Int, balance: Int) -> Int { min(granted, balance) }
}
