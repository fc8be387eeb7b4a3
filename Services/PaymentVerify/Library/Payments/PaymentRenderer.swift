import Contracts
import ServiceKit

/// Stored payments → API.md §5's answers.
enum PaymentRenderer {
    static func validation(_ record: PaymentRecord, item: PaidOrderItem) -> PaymentValidationAnswer {
        PaymentValidationAnswer(
            paymentID: record.id, orderItem: item, createdAt: GlintDate.string(fromMilliseconds: record.createdAt),
            updatedAt: GlintDate.string(fromMilliseconds: record.updatedAt))
    }

    static func coinPurchase(_ record: PaymentRecord) -> CoinPurchaseAnswer {
        CoinPurchaseAnswer(
            billingID: record.id, merchantUID: record.merchantUID, buyerID: record.userID, productName: record.productName,
            price: record.amount, sesacCoin: record.coins, paidAt: GlintDate.string(fromMilliseconds: record.paidAt))
    }

    /// PortOne's word on the payment, as stored when it was verified (or refunded).
    static func receipt(_ record: PaymentRecord) throws -> PaymentReceipt {
        try JSONText.decode(record.receipt).orThrow()
    }

    static func storeItems(_ products: [CoinProduct]) -> [StoreItem] {
        products.map { StoreItem(itemID: $0.name, amount: $0.price, coin: $0.coins) }
    }
}
