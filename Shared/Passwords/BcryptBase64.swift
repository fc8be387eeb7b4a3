/// bcrypt's base64: its own alphabet, no padding.
enum BcryptBase64 {
    private static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let values: [UInt8: UInt8] = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, UInt8($0)) })

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            out.append(alphabet[Int(b0 >> 2)])
            var carry = (b0 & 0x03) << 4
            guard index + 1 < bytes.count else { out.append(alphabet[Int(carry)]); break }
            let b1 = bytes[index + 1]
            out.append(alphabet[Int(carry | (b1 >> 4))])
            carry = (b1 & 0x0F) << 2
            guard index + 2 < bytes.count else { out.append(alphabet[Int(carry)]); break }
            let b2 = bytes[index + 2]
            out.append(alphabet[Int(carry | (b2 >> 6))])
            out.append(alphabet[Int(b2 & 0x3F)])
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: some StringProtocol, count: Int) -> [UInt8]? {
        var sextets: [UInt8] = []
        for byte in text.utf8 {
            guard let value = values[byte] else { return nil }
            sextets.append(value)
        }
        var out: [UInt8] = []
        var index = 0
        while out.count < count, index + 1 < sextets.count {
            out.append((sextets[index] << 2) | (sextets[index + 1] >> 4))
            if out.count < count, index + 2 < sextets.count { out.append((sextets[index + 1] << 4) | (sextets[index + 2] >> 2)) }
            if out.count < count, index + 3 < sextets.count { out.append((sextets[index + 2] << 6) | sextets[index + 3]) }
            index += 4
        }
        return out.count == count ? out : nil
    }
}
