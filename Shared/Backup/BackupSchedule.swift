import Foundation

/// When the launcher takes snapshots (`BACKUP_SCHEDULE`, times in UTC): `hourly` (on the hour),
/// `daily HH:MM`, or `every N` with a unit `s`, `m` or `h` (`every 6h`; counted from midnight, so
/// `every 6h` is 00:00, 06:00, 12:00 and 18:00).
package struct BackupSchedule: Sendable, Equatable, CustomStringConvertible {
    /// A snapshot is due at every multiple of `period` after midnight plus `offset`.
    let period: Int64
    let offset: Int64

    private static let day: Int64 = 86_400_000

    package init?(_ text: String) {
        let words = text.lowercased().split(separator: " ").map(String.init)
        switch words.first {
        case "hourly" where words.count == 1:
            (period, offset) = (3_600_000, 0)
        case "daily" where words.count == 2:
            let parts = words[1].split(separator: ":").map { Int64($0) }
            guard parts.count == 2, let hour = parts[0], let minute = parts[1], (0..<24).contains(hour), (0..<60).contains(minute),
                words[1].count == 5
            else { return nil }
            (period, offset) = (Self.day, (hour * 60 + minute) * 60_000)
        case "every" where words.count == 2:
            let amount = words[1].dropLast()
            let unit: Int64? =
                switch words[1].last {
                case "s": 1000
                case "m": 60_000
                case "h": 3_600_000
                default: nil
                }
            guard let unit, let count = Int64(amount), count >= 1 else { return nil }
            // A period that does not divide the day would drift against midnight: refused.
            let period = count * unit
            guard period <= Self.day, Self.day % period == 0 else { return nil }
            (self.period, offset) = (period, 0)
        default:
            return nil
        }
    }

    /// The first time a snapshot is due strictly after `milliseconds` (since 1970, UTC).
    package func next(after milliseconds: Int64) -> Int64 {
        let shifted = milliseconds - offset
        let floor = shifted >= 0 ? shifted / period * period : -((-shifted + period - 1) / period * period)
        return floor + period + offset
    }

    package var description: String {
        if period == Self.day { return String(format: "daily %02d:%02d", offset / 3_600_000, offset / 60_000 % 60) }
        return period == 3_600_000 ? "hourly" : "every \(period / 1000)s"
    }
}
