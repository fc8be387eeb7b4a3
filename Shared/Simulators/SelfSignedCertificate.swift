import Crypto
import Foundation
import SwiftASN1
import X509

/// A throwaway certificate for 127.0.0.1 / localhost, made once per process: the TLS simulators
/// (APNs) serve it, and the client under test is told to trust it.
struct SelfSignedCertificate: Sendable {
    static let shared: Result<SelfSignedCertificate, any Error> = Result { try SelfSignedCertificate() }

    let certificatePEM: String
    let privateKeyPEM: String

    init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("glint simulator") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(86_400 * 30),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key)
        )
        certificatePEM = try certificate.serializeAsPEM().pemString
        privateKeyPEM = key.pemRepresentation
    }
}
