/// The Blowfish state as bcrypt uses it: 18 P-array words then four 256-word S-boxes, with the
/// Eksblowfish key expansion (OpenBSD `Blowfish_expandstate` / `Blowfish_expand0state`).
struct Blowfish {
    static let initialState: [UInt32] = PiDigits.fractionWords(18 + 4 * 256)

    var state: [UInt32] = Blowfish.initialState

    /// Mixes `key` (cycled) into P, then re-encrypts the whole state, xoring in `salt` (cycled)
    /// when given.
    mutating func expand(key: [UInt8], salt: [UInt8]?) {
        state.withUnsafeMutableBufferPointer { s in
            var keyIndex = 0
            for i in 0..<18 { s[i] ^= Self.word(key, &keyIndex) }
            var left: UInt32 = 0, right: UInt32 = 0
            var saltIndex = 0
            var i = 0
            while i < 18 + 1024 {
                if let salt {
                    left ^= Self.word(salt, &saltIndex)
                    right ^= Self.word(salt, &saltIndex)
                }
                Self.encrypt(s, &left, &right)
                s[i] = left
                s[i + 1] = right
                i += 2
            }
        }
    }

    /// Encrypts 64-bit blocks in place (ECB), as bcrypt does with its magic text.
    func encrypt(_ blocks: inout [UInt32]) {
        state.withUnsafeBufferPointer { s in
            var i = 0
            while i < blocks.count {
                var left = blocks[i], right = blocks[i + 1]
                Self.encrypt(s, &left, &right)
                blocks[i] = left
                blocks[i + 1] = right
                i += 2
            }
        }
    }

    @inline(__always)
    private static func f(_ s: UnsafeBufferPointer<UInt32>, _ x: UInt32) -> UInt32 {
        ((s[18 + Int(x >> 24)] &+ s[274 + Int((x >> 16) & 0xFF)]) ^ s[530 + Int((x >> 8) & 0xFF)]) &+ s[786 + Int(x & 0xFF)]
    }

    @inline(__always)
    private static func encrypt(_ s: UnsafeBufferPointer<UInt32>, _ left: inout UInt32, _ right: inout UInt32) {
        var l = left, r = right
        var round = 0
        while round < 16 {
            l ^= s[round]
            r ^= f(s, l)
            swap(&l, &r)
            round += 1
        }
        swap(&l, &r)
        r ^= s[16]
        l ^= s[17]
        left = l
        right = r
    }

    @inline(__always)
    private static func encrypt(_ s: UnsafeMutableBufferPointer<UInt32>, _ left: inout UInt32, _ right: inout UInt32) {
        encrypt(UnsafeBufferPointer(s), &left, &right)
    }

    /// Four bytes of `data` read cyclically, big-endian.
    @inline(__always)
    private static func word(_ data: [UInt8], _ index: inout Int) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            value = (value << 8) | UInt32(data[index])
            index = (index + 1) % data.count
        }
        return value
    }
}
