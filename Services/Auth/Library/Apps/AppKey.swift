import Contracts

/// API keys travel in a header and are shipped inside released apps, so they are identifiers
/// more than secrets; we still make new ones unguessable.
enum AppKey {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return "glint_" + Hex.encode((0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Keys registered by hand (released apps' existing keys) must be header-safe.
    static func isAcceptable(_ key: String) -> Bool {
        (8...128).contains(key.utf8.count) && key.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }
}
