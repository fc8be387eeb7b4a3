/// Which part of the full-text index a room's messages are in: each message is indexed with a
/// three-character key of its room, which the trigram index holds as exactly one token, so a
/// search asks for "this room's key AND the phrase" and the index intersects the room's messages
/// with the phrase's instead of matching the phrase in every room. The key is three private-use
/// characters made of 36 bits of the room id's random part (two rooms sharing a key only share a
/// partition; the search still checks the room).
enum SearchPartition {
    /// Hex digits 10–18 (1-based) of a room id: the ObjectID's random bytes.
    private static let digits = 10...18
    private static let base = 0xE000

    /// The key as SQL computes it from `chat.room_id` (a generated column, so the index can be
    /// rebuilt from the table).
    static var sqlExpression: String {
        func digit(_ position: Int) -> String { "(instr('0123456789abcdef', substr(room_id, \(position), 1)) - 1)" }
        let characters = stride(from: digits.lowerBound, to: digits.upperBound, by: 3).map { first in
            "\(base) + 256 * \(digit(first)) + 16 * \(digit(first + 1)) + \(digit(first + 2))"
        }
        return "char(" + characters.joined(separator: ", ") + ")"
    }

    /// The same in Swift, for queries.
    static func key(ofRoom roomID: String) -> String {
        let bytes = Array(roomID.utf8)
        func digit(_ position: Int) -> Int {
            guard position - 1 < bytes.count, let value = "0123456789abcdef".utf8.firstIndex(of: bytes[position - 1]) else { return -1 }
            return "0123456789abcdef".utf8.distance(from: "0123456789abcdef".utf8.startIndex, to: value)
        }
        var key = ""
        for first in stride(from: digits.lowerBound, to: digits.upperBound, by: 3) {
            key.unicodeScalars.append(Unicode.Scalar(UInt32(base + 256 * digit(first) + 16 * digit(first + 1) + digit(first + 2)))!)
        }
        return key
    }
}
