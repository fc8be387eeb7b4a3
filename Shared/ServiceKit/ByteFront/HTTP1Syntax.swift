/// What the heads read from bytes share: a request (`PlainRequestHead`) and, at the gateway, a
/// service's answer (`UpstreamHead`).
public enum HTTP1Syntax {
    /// The offset just past the first blank line (`\r\n\r\n`), if it is within `limit` bytes.
    @inlinable public static func headEnd(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Int? {
        let limit = min(bytes.count, limit)
        var index = 3
        while index < limit {
            // Steps of two when the byte cannot end the pattern.
            let byte = bytes[index]
            if byte == 0x0A {
                if bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return index + 1 }
                index += 1
            } else if byte == 0x0D {
                index += 1
            } else {
                index += 2
            }
        }
        return nil
    }

    /// A byte of an RFC 9110 token (a method, a field name).
    @inlinable public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        // ! # $ % & ' * + - . ^ _ ` | ~
        case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: return true
        default: return false
        }
    }
}
