import Foundation
import Synchronization

/// 24-hex identifiers in the ObjectId layout: 4 bytes of seconds (so ids sort by creation time),
/// 5 fresh random bytes per id (so a known id does not reveal its neighbours — room ids are
/// capabilities, API.md §3) and a 3-byte counter (so two ids of one process never collide, even
/// within one second and with identical random bytes). Processes start their counters at random.
public enum ObjectID {
    private static let counter = Mutex<UInt32>(UInt32.random(in: 0...0xFF_FFFF))

    public static func generate(now: Date = Date()) -> String {
        let seconds = UInt32(truncatingIfNeeded: Int64(now.timeIntervalSince1970))
        let count = counter.withLock { value -> UInt32 in
            value = (value &+ 1) & 0xFF_FFFF
            return value
        }
        var bytes = [UInt8](repeating: 0, count: 12)
        bytes[0] = UInt8(seconds >> 24)
        bytes[1] = UInt8((seconds >> 16) & 0xFF)
        bytes[2] = UInt8((seconds >> 8) & 0xFF)
        bytes[3] = UInt8(seconds & 0xFF)
        var generator = SystemRandomNumberGenerator()
        let random = generator.next() // one system call for all five bytes
        for index in 4..<9 { bytes[index] = UInt8(truncatingIfNeeded: random >> (8 * (index - 4))) }
        bytes[9] = UInt8(count >> 16)
        bytes[10] = UInt8((count >> 8) & 0xFF)
        bytes[11] = UInt8(count & 0xFF)
        return Hex.encode(bytes)
    }

    /// True for exactly 24 lowercase or uppercase hex digits.
    public static func isValid(_ candidate: some StringProtocol) -> Bool {
        candidate.utf8.count == 24 && candidate.utf8.allSatisfy(Hex.isDigit)
    }
}
