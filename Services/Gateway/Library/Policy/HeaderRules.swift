import Contracts

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
    static func staysAtGateway(_ name: String) -> Bool {
        isHopByHop(name) || name.isASCII(caseInsensitivelyEqualTo: "sesackey")
            || name.isASCII(caseInsensitivelyEqualTo: InternalHeader.requestID)
            || name.hasASCIIPrefix(caseInsensitively: InternalHeader.prefix)
    }
}

extension String {
    /// `lowercase` must be lowercase ASCII.
    func isASCII(caseInsensitivelyEqualTo lowercase: String) -> Bool {
        utf8.isASCII(caseInsensitivelyEqualTo: lowercase)
    }

    /// `lowercase` must be lowercase ASCII.
    func hasASCIIPrefix(caseInsensitively lowercase: String) -> Bool {
        utf8.hasASCIIPrefix(caseInsensitively: lowercase)
    }
}

/// The same on bytes (names read from the wire, `UpstreamHead`).
extension Collection<UInt8> {
    /// `lowercase` must be lowercase ASCII.
    func isASCII(caseInsensitivelyEqualTo lowercase: String) -> Bool {
        count == lowercase.utf8.count && hasASCIIPrefix(caseInsensitively: lowercase)
    }

    /// `lowercase` must be lowercase ASCII.
    func hasASCIIPrefix(caseInsensitively lowercase: String) -> Bool {
        var own = makeIterator()
        for expected in lowercase.utf8 {
            guard let byte = own.next() else { return false }
            let folded = (65...90).contains(byte) ? byte | 0x20 : byte
            if folded != expected { return false }
        }
        return true
    }
}
