import Crypto
import Foundation
import JWTKit

/// Signs access tokens with one ES256 key. The header is encoded once, keys sorted, so its
/// segment is the same for every token of a key (`{"alg":"ES256","kid":…,"typ":"JWT"}`), as
/// API.md asks; the claims are written by hand (`JSONWriter`, the bytes `JSONEncoder` with sorted
/// keys would give) and signed with swift-crypto straight away — JWTKit's general path (its key
/// collection's actor, two `JSONEncoder` runs, a header per token) cost more than the signature.
package struct AccessTokenSigner: Sendable {
    package let keyID: String
    private let key: P256.Signing.PrivateKey
    /// `base64url(header) + "."`
    private let headerSegment: [UInt8]

    package init(key: ES256PrivateKey, keyID: String) throws {
        self.key = try P256.Signing.PrivateKey(pemRepresentation: key.pemRepresentation)
        self.keyID = keyID
        var header = JSONWriter(capacity: 64)
        header.objectStart()
        header.key("alg"); header.string("ES256")
        header.key("kid"); header.string(keyID)
        header.key("typ"); header.string("JWT")
        header.objectEnd()
        headerSegment = Array((Base64URL.encode(header.bytes) + ".").utf8)
    }

    /// Written in one string: the signing input (header and payload segments) is signed where it
    /// lies, and the signature encoded after it.
    package func sign(_ claims: AccessTokenClaims) throws -> String {
        var payload = JSONWriter(capacity: 160)
        claims.write(to: &payload)
        let inputCount = headerSegment.count + Base64URL.encodedCount(payload.bytes.count)
        // The JWS form of an ES256 signature is r and s, 32 bytes each: the raw representation.
        return try String(unsafeUninitializedCapacity: inputCount + 1 + Base64URL.encodedCount(64)) { output in
            _ = output.initialize(fromContentsOf: headerSegment)
            let segment = UnsafeMutableBufferPointer(rebasing: output[headerSegment.count...])
            _ = payload.bytes.withUnsafeBytes { Base64URL.write($0, to: segment) }
            let signature = try key.signature(for: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: output[..<inputCount])))
            output[inputCount] = UInt8(ascii: ".")
            let written = signature.rawRepresentation.withUnsafeBytes {
                Base64URL.write($0, to: UnsafeMutableBufferPointer(rebasing: output[(inputCount + 1)...]))
            }
            return inputCount + 1 + written
        }
    }

    /// The public half as a JWKS, for `/.well-known/jwks.json`.
    package static func jwks(for key: ES256PrivateKey, keyID: String) -> JWKS {
        let parameters = key.publicKey.parameters
        return JWKS(keys: [
            JWK.ecdsa(.es256, identifier: JWKIdentifier(string: keyID), x: parameters?.x, y: parameters?.y, curve: .p256)
        ])
    }
}
