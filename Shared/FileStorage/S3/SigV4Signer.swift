import Contracts
import Crypto
import Foundation

/// AWS Signature Version 4 for S3 (the `Authorization` header and presigned URLs), as AWS's
/// "Authenticating Requests (AWS Signature Version 4)" describes it: a canonical request, the
/// string to sign, and the key derived from the secret by date, region and service.
package struct SigV4Signer: Sendable {
    package var accessKeyID: String
    package var secretAccessKey: String
    package var region: String
    package var service = "s3"

    package init(accessKeyID: String, secretAccessKey: String, region: String) {
        (self.accessKeyID, self.secretAccessKey, self.region) = (accessKeyID, secretAccessKey, region)
    }

    /// A request to sign: `path` as sent (already percent-encoded), `query` unencoded.
    package struct Request: Sendable {
        package var method: String
        package var host: String
        package var path: String
        package var query: [(String, String)]
        package var headers: [(String, String)]

        package init(method: String, host: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = []) {
            (self.method, self.host, self.path, self.query, self.headers) = (method, host, path, query, headers)
        }
    }

    /// The SHA-256 of an empty payload (every GET, HEAD and DELETE).
    package static let emptyPayloadHash = hex(SHA256.hash(data: Data()))

    package static func payloadHash(_ bytes: some DataProtocol) -> String { hex(SHA256.hash(data: bytes)) }

    /// The headers to add to `request` — `x-amz-date`, `x-amz-content-sha256` and
    /// `Authorization` — every header of `request` and `host` signed.
    package func headers(for request: Request, payloadHash: String, at date: Date) -> [(String, String)] {
        let stamp = Self.stamp(date)
        var signed = request
        signed.headers += [("x-amz-content-sha256", payloadHash), ("x-amz-date", stamp.time)]
        let (canonical, names) = canonicalRequest(signed, payloadHash: payloadHash)
        let signature = self.signature(of: canonical, stamp: stamp)
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope(stamp)),SignedHeaders=\(names),Signature=\(signature)"
        return [("x-amz-content-sha256", payloadHash), ("x-amz-date", stamp.time), ("Authorization", authorization)]
    }

    /// The query of a URL that lets whoever holds it make `request` (host signed alone, payload
    /// unsigned) for `expires` seconds from `date`.
    package func presignedQuery(for request: Request, expires: Int, at date: Date) -> String {
        let stamp = Self.stamp(date)
        var signed = request
        signed.query += [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", "\(accessKeyID)/\(scope(stamp))"), ("X-Amz-Date", stamp.time),
            ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", "host"),
        ]
        signed.headers = []
        let (canonical, _) = canonicalRequest(signed, payloadHash: "UNSIGNED-PAYLOAD")
        return Self.canonicalQuery(signed.query) + "&X-Amz-Signature=" + signature(of: canonical, stamp: stamp)
    }

    /// The canonical request and its signed header names (`host;range;x-amz-date`).
    package func canonicalRequest(_ request: Request, payloadHash: String) -> (String, String) {
        var headers: [String: [String]] = ["host": [request.host]]
        for (name, value) in request.headers {
            headers[name.lowercased(), default: []].append(value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
        }
        let names = headers.keys.sorted()
        let lines = names.map { "\($0):\(headers[$0]!.joined(separator: ","))\n" }.joined()
        let signedNames = names.joined(separator: ";")
        let canonical = [request.method, request.path, Self.canonicalQuery(request.query), lines, signedNames, payloadHash].joined(separator: "\n")
        return (canonical, signedNames)
    }

    /// The string to sign's hash chain: HMAC of the canonical request's hash with the derived key.
    package func signature(of canonicalRequest: String, stamp: (day: String, time: String)) -> String {
        let toSign = ["AWS4-HMAC-SHA256", stamp.time, scope(stamp), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Data(("AWS4" + secretAccessKey).utf8))
        for part in [stamp.day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: key))
    }

    private func scope(_ stamp: (day: String, time: String)) -> String {
        "\(stamp.day)/\(region)/\(service)/aws4_request"
    }

    /// `20130524` and `20130524T000000Z`, in UTC.
    package static func stamp(_ date: Date) -> (day: String, time: String) {
        let time = GlintDate.compactStamp(fromMilliseconds: GlintDate.milliseconds(date))
        return (String(time.prefix(8)), time)
    }

    /// Query parameters sorted by name, names and values percent-encoded.
    package static func canonicalQuery(_ query: [(String, String)]) -> String {
        let pairs: [(name: String, value: String)] = query.map { (encode($0.0), encode($0.1)) }
        let sorted = pairs.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        return sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// RFC 3986 percent-encoding of everything but unreserved characters; `/` too unless `keepSlash`
    /// (an object key in a path).
    package static func encode(_ text: String, keepSlash: Bool = false) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) || (keepSlash && byte == slash) {
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                encoded += "%" + Hex.encode([byte]).uppercased()
            }
        }
        return encoded
    }

    private static let slash = UInt8(ascii: "/")
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~".utf8)

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        Hex.encode(bytes)
    }
}
