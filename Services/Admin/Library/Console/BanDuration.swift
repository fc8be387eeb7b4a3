import Contracts
import Foundation
import ServiceKit

/// A ban's length as the console's forms offer it (`1d`, `7d`, `30d`, `forever`), turned into the
/// `until` the API takes.
enum BanDuration {
    static let choices = [("1d", "1 day"), ("7d", "7 days"), ("30d", "30 days"), ("forever", "for ever")]

    static func until(_ choice: String?, now: Date = Date()) throws -> String? {
        guard let choice, choice != "forever" else { return nil }
        guard choice.hasSuffix("d"), let days = Int(choice.dropLast()), choices.contains(where: { $0.0 == choice }) else {
            throw ServiceError.badRequest("duration must be one of \(choices.map(\.0).joined(separator: ", "))")
        }
        return GlintDate.string(fromMilliseconds: GlintDate.milliseconds(now) + Int64(days) * 86_400_000)
    }

    static var options: [Choice] {
        choices.map { Choice(value: $0.0, label: $0.1, selected: $0.0 == "forever") }
    }
}
