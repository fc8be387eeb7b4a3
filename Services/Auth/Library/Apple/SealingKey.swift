import Crypto
import Foundation
import ServiceKit

/// A symmetric key for secrets auth-svc must keep but never show (Apple refresh tokens): read
/// from its file, or made on first start and kept there owner-readable only. AES-GCM, so a
/// sealed value that was altered does not open. Other uses (the refresh tokens' MAC) take
/// subkeys of it.
struct SealingKey: Sendable {
    private let key: SymmetricKey

    static func loadOrCreate(at path: String) throws -> SealingKey {
        if let data = FileManager.default.contents(atPath: path) {
            // Never replaced once there: whatever it sealed would be lost. A newline after the
            // base64 (`openssl rand -base64 32 > file`, a Secret) is fine.
            guard let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                let bytes = Data(base64Encoded: text), bytes.count == 32
            else {
                throw ConfigurationError(variable: AuthSettings.sealingKeyFile.name, problem: "\(path) does not hold 32 base64-encoded bytes")
            }
            return SealingKey(key: SymmetricKey(data: bytes))
        }
        let key = SymmetricKey(size: .bits256)
        try DataDirectory.ensure((path as NSString).deletingLastPathComponent)
        try DataDirectory.writePrivate(Data(key.withUnsafeBytes { Data($0) }.base64EncodedString().utf8), to: path)
        return SealingKey(key: key)
    }

    init(key: SymmetricKey) {
        self.key = key
    }

    /// A key of its own for another use (`label`), derived so that one file stays the only secret
    /// to keep and no two uses share a key.
    func subkey(_ label: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(label.utf8), outputByteCount: 32)
    }

    func seal(_ text: String) throws -> Data {
        // The default 12-byte nonce always gives a combined form.
        guard let combined = try AES.GCM.seal(Data(text.utf8), using: key).combined else { throw ServiceError(.internalError, "could not seal") }
        return combined
    }

    func open(_ sealed: Data) throws -> String {
        String(decoding: try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key), as: UTF8.self)
    }
}
