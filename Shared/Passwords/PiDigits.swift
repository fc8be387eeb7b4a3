/// Blowfish's initial state is the fractional part of π in hex (P-array then S-boxes). Rather
/// than pasting 4 KB of constants, we compute them once with Machin's formula,
/// π = 16·atan(1/5) − 4·atan(1/239), in fixed point on 32-bit words (plus guard words).
enum PiDigits {
    /// The first `count` 32-bit words of π's fractional part (0x243F6A88, 0x85A308D3, …).
    static func fractionWords(_ count: Int) -> [UInt32] {
        let width = count + 4  // word 0 is the integer part; the rest absorb truncation error
        var pi = arctanInverse(5, width: width)
        multiply(&pi, by: 16)
        var second = arctanInverse(239, width: width)
        multiply(&second, by: 4)
        subtract(&pi, second)
        return Array(pi[1...count])
    }

    /// atan(1/x) = Σ (−1)^k / ((2k+1)·x^(2k+1))
    private static func arctanInverse(_ x: UInt32, width: Int) -> [UInt32] {
        var power = [UInt32](repeating: 0, count: width)
        power[0] = 1
        divide(&power, by: x)
        var sum = power
        let square = x * x
        var k: UInt32 = 1
        while !power.allSatisfy({ $0 == 0 }) {
            divide(&power, by: square)
            var term = power
            divide(&term, by: 2 * k + 1)
            if k % 2 == 1 { subtract(&sum, term) } else { add(&sum, term) }
            k += 1
        }
        return sum
    }

    private static func divide(_ number: inout [UInt32], by divisor: UInt32) {
        var remainder: UInt64 = 0
        for index in number.indices {
            let value = (remainder << 32) | UInt64(number[index])
            number[index] = UInt32(value / UInt64(divisor))
            remainder = value % UInt64(divisor)
        }
    }

    private static func multiply(_ number: inout [UInt32], by factor: UInt32) {
        var carry: UInt64 = 0
        for index in number.indices.reversed() {
            let value = UInt64(number[index]) * UInt64(factor) + carry
            number[index] = UInt32(truncatingIfNeeded: value)
            carry = value >> 32
        }
    }

    private static func add(_ number: inout [UInt32], _ other: [UInt32]) {
        var carry: UInt64 = 0
        for index in number.indices.reversed() {
            let value = UInt64(number[index]) + UInt64(other[index]) + carry
            number[index] = UInt32(truncatingIfNeeded: value)
            carry = value >> 32
        }
    }

    private static func subtract(_ number: inout [UInt32], _ other: [UInt32]) {
        var borrow: Int64 = 0
        for index in number.indices.reversed() {
            var value = Int64(number[index]) - Int64(other[index]) - borrow
            borrow = 0
            if value < 0 {
                value += 1 << 32
                borrow = 1
            }
            number[index] = UInt32(value)
        }
    }
}
