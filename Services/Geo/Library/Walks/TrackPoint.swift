import Contracts
import Foundation
import ServiceKit

/// A validated GPS fix of a walk: a position and its time in epoch milliseconds.
struct TrackPoint: Sendable, Equatable {
    var coordinate: Coordinate
    var time: Int64

    static let earliest: Int64 = 946_684_800_000  // 2000-01-01

    /// Numbers of 1e11 and more are milliseconds (that is after 1973 in ms, and year 5138 in
    /// seconds), smaller ones seconds; strings are our date format or ISO 8601.
    init(_ input: WalkPointInput, now: Int64) throws {
        coordinate = try Coordinate(latitude: input.latitude, longitude: input.longitude)
        let time: Int64?
        switch input.timestamp {
        case .number(let number) where number.isFinite && abs(number) < 1e15:
            time = Int64((number >= 1e11 ? number : number * 1000).rounded())
        case .number: time = nil
        case .text(let text): time = GlintDate.milliseconds(from: text) ?? Self.iso8601(text)
        }
        guard let time, (Self.earliest...now + 86_400_000).contains(time) else {
            throw ServiceError.badRequest("timestamp must be epoch seconds or milliseconds, or an ISO 8601 date, not in the future")
        }
        self.time = time
    }

    init(coordinate: Coordinate, time: Int64) {
        (self.coordinate, self.time) = (coordinate, time)
    }

    private static func iso8601(_ text: String) -> Int64? {
        guard text.count <= 40 else { return nil }
        let date = (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        return date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
