import Contracts
import ServiceKit

/// Which headers the gateway passes on, decided on names as they came (any case): NIO's heads
/// keep the client's spelling, and lowercasing every name of every request would cost more than
/// comparing.
enum HeaderRules {
    /// Headers that describe one hop, not the message (RFC 9110 §7.6.1), plus `host`.
    static let hopByHop = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization",
        "te", "trailer", "transfer-encoding", "upgrade", "host",
    ]

    static func isHopByHop(_ name: String) -> Bool {
        isHopByHop(name.utf8)
    }

    static func isHopByHop(_ name: some Collection<UInt8>) -> Bool {
        hopByHop.contains { name.isASCII(caseInsensitivelyEqualTo: $0) }
    }

    /// Not passed to a service: hop-by-hop headers, the app key, anything posing as internal, and
    /// the request id (the gateway sets the one it accepted or made).
    static func staysAtGateway(_ name: some Collection<UInt8>) -> Bool {
        isHopByHop(name) || name.isASCII(caseInsensitivelyEqualTo: "sesackey")
            || name.isASCII(caseInsensitivelyEqualTo: InternalHeader.requestID)
            || name.hasASCIIPrefix(caseInsensitively: InternalHeader.prefix)
    }
}
