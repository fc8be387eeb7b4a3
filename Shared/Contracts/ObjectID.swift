import Foundation
import Synchronization

/// 24-hex identifiers in the ObjectId layout: 4 bytes of seconds (so ids sort by creation time),
/// 5 fresh random bytes per `generate`d id (so a known id does not reveal its neighbours — room ids are
/// capabilities, API.md §3) and a 3-byte counter (so two ids of one process never collide, even
/// within one second and with identical random bytes). Processes start their counters at random.
package enum ObjectID {
    private static let counter = Mutex<UInt32>(UInt32.random(in: 0...0xFF_FFFF))
    /// `sequential`'s middle bytes, drawn once per process.
    private static let processRandom = UInt64.random(in: 0...UInt64.max)

    package static func generate(now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(now: now, random: generator.next())  // one system call for all five bytes
    }

    /// The same layout with the process's random bytes instead of fresh ones (MongoDB's own
    /// scheme): for ids that label things rather than grant access (request ids), where a system
    /// call per id would be the larger part of making it.
    package static func sequential(now: Date = Date()) -> String {
        make(now: now, random: processRandom)
    }

    /// Sequential ids of one thread's own: random bytes and a counter of its own, so making one
    /// takes no lock another thread takes (the gateway's front loops: the process's counter was
    /// a lock both loops' cores wrote per request). Apart from `sequential`'s, as if another
    /// process's: the random bytes tell the sequences apart.
    package struct Series {
        private let random = UInt64.random(in: 0...UInt64.max)
        private var count = UInt32.random(in: 0...0xFF_FFFF)

        package init() {}

        package mutating func next(seconds: UInt32) -> String {
            count = (count &+ 1) & 0xFF_FFFF
            return ObjectID.make(seconds: seconds, random: random, count: count)
        }
    }

    private static func make(now: Date, random: UInt64) -> String {
        let count = counter.withLock { value -> UInt32 in
            value = (value &+ 1) & 0xFF_FFFF
            return value
        }
        return make(seconds: UInt32(truncatingIfNeeded: Int64(now.timeIntervalSince1970)), random: random, count: count)
    }

    private static func make(seconds: UInt32, random: UInt64, count: UInt32) -> String {
        String(unsafeUninitializedCapacity: 24) { out in
            var index = 0
            func put(_ byte: UInt8) {
                out[index] = Hex.digit(byte >> 4)
                out[index + 1] = Hex.digit(byte & 0x0F)
                index += 2
            }
            for shift in stride(from: 24, through: 0, by: -8) { put(UInt8(truncatingIfNeeded: seconds >> UInt32(shift))) }
            for shift in stride(from: 0, to: 40, by: 8) { put(UInt8(truncatingIfNeeded: random >> UInt64(shift))) }
            for shift in stride(from: 16, through: 0, by: -8) { put(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
            return index
        }
    }

    /// True for exactly 24 lowercase or uppercase hex digits.
    package static func isValid(_ candidate: some StringProtocol) -> Bool {
        candidate.utf8.count == 24 && candidate.utf8.allSatisfy(Hex.isDigit)
    }
}
