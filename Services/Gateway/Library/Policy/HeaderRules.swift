import Contracts
import ServiceKit

/// Which headers the gateway passes on, decided on names as they came (any case): NIO's heads
/// keep the client's spelling, and lowercasing every name of every request would cost more than
/// comparing. Every field of every request and answer is asked about, so the name's length picks
/// the one or two candidates before any byte is compared.
enum HeaderRules {
    /// Headers that describe one hop, not the message (RFC 9110 §7.6.1), plus `host`.
    static func isHopByHop(_ name: String) -> Bool {
        isHopByHop(name.utf8)
    }

    static func isHopByHop(_ name: some Collection<UInt8>) -> Bool {
        switch name.count {
        case 2: name.isASCII(caseInsensitivelyEqualTo: "te")
        case 4: name.isASCII(caseInsensitivelyEqualTo: "host")
        case 7: name.isASCII(caseInsensitivelyEqualTo: "trailer") || name.isASCII(caseInsensitivelyEqualTo: "upgrade")
        case 10: name.isASCII(caseInsensitivelyEqualTo: "connection") || name.isASCII(caseInsensitivelyEqualTo: "keep-alive")
        case 16: name.isASCII(caseInsensitivelyEqualTo: "proxy-connection")
        case 17: name.isASCII(caseInsensitivelyEqualTo: "transfer-encoding")
        case 18: name.isASCII(caseInsensitivelyEqualTo: "proxy-authenticate")
        case 19: name.isASCII(caseInsensitivelyEqualTo: "proxy-authorization")
        default: false
        }
    }

    /// Not passed to a service: hop-by-hop headers, the app key, anything posing as internal, and
    /// the request id (the gateway sets the one it accepted or made).
    static func staysAtGateway(_ name: some Collection<UInt8>) -> Bool {
        switch name.count {
        case 8 where name.isASCII(caseInsensitivelyEqualTo: "sesackey"): true
        case 12 where name.isASCII(caseInsensitivelyEqualTo: InternalHeader.requestID): true
        case InternalHeader.prefix.utf8.count...: name.hasASCIIPrefix(caseInsensitively: InternalHeader.prefix) || isHopByHop(name)
        default: isHopByHop(name)
        }
    }
}
