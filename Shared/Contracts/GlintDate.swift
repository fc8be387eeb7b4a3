import Foundation

/// The one date format of the wire contract: `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`, UTC, always with
/// milliseconds. Clients sort these strings and echo them back as cursors, so formatting must be
/// exact and parsing must accept exactly what we print. Stored values are integer milliseconds.
/// Written by hand (civil-from-days) because DateFormatter is slow and not safe to share.
package enum GlintDate {
    package static func nowMilliseconds() -> Int64 {
        milliseconds(Date())
    }

    /// A date as stored: whole milliseconds since 1970, toward the past.
    package static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    package static func date(fromMilliseconds ms: Int64) -> Date {
        Date(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// The wire string of a date (`string(fromMilliseconds:)` of its milliseconds).
    package static func string(from date: Date) -> String {
        string(fromMilliseconds: milliseconds(date))
    }

    package static func string(fromMilliseconds ms: Int64) -> String {
        let days = floorDiv(ms, 86_400_000)
        let msOfDay = ms - days * 86_400_000
        let (year, month, day) = civil(fromDays: days)
        let hour = msOfDay / 3_600_000
        let minute = (msOfDay / 60_000) % 60
        let second = (msOfDay / 1000) % 60
        let milli = msOfDay % 1000
        if (0...9999).contains(year) {
            // Every answer carries dates: the 24 bytes written in place, no interpolation.
            return String(unsafeUninitializedCapacity: 24) { text in
                func put(_ value: Int64, _ width: Int, at offset: Int) {
                    var rest = value
                    for index in (offset..<(offset + width)).reversed() {
                        text[index] = UInt8(48 + rest % 10)
                        rest /= 10
                    }
                }
                put(year, 4, at: 0); put(month, 2, at: 5); put(day, 2, at: 8)
                put(hour, 2, at: 11); put(minute, 2, at: 14); put(second, 2, at: 17); put(milli, 3, at: 20)
                (text[4], text[7], text[10], text[13], text[16], text[19], text[23]) = (45, 45, 84, 58, 58, 46, 90)  // - - T : : . Z
                return 24
            }
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
    }

    /// `20130524T000000Z`: the same moment to the second, without separators (AWS's signature
    /// dates, snapshot ids).
    package static func compactStamp(fromMilliseconds ms: Int64) -> String {
        String(string(fromMilliseconds: ms).prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
    }

    /// Parses exactly the format above (24 characters); nil for anything else.
    package static func milliseconds(from text: some StringProtocol) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58,
            bytes[16] == 58, bytes[19] == 46, bytes[23] == 90
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            let milli = number(20..<23),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = self.days(fromCivil: year, month, day)
        return days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + milli
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
