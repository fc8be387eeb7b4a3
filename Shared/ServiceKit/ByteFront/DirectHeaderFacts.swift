import Contracts

/// What a byte front (the gateway's direct path, a service's `ServiceByteFront`) needs from a request's headers, read in one pass over the names as they
/// came. nil when a header rules the direct path out: an upgrade, a chunked body, an `Expect`,
/// `Connection: close`, or a repeated length or key (the general path answers those). Public and
/// inlinable, as the byte fronts call it per request.
public struct DirectHeaderFacts {
    public var contentLength: String?
    public var appKey: String?
    public var forwardedFor: String?
    public var requestID: String?

    @inlinable public init?(_ headers: some Sequence<(name: String, value: String)>) {
        for (name, value) in headers {
            guard take(name.utf8, value: { value }) else { return nil }
        }
    }

    /// None yet: `PlainRequestHead` reads them as it checks each line (`take`).
    package init() {}

    /// One field; false when it rules the direct path out.
    @inlinable mutating func take(_ name: some Collection<UInt8>, value: () -> String) -> Bool {
        // The length sorts out all but one candidate before any byte is compared.
        switch name.count {
        case 14 where name.isASCII(caseInsensitivelyEqualTo: "content-length"):
            guard contentLength == nil else { return false }
            contentLength = value()
        case 8 where name.isASCII(caseInsensitivelyEqualTo: "sesackey"):
            guard appKey == nil else { return false }
            appKey = value()
        case 15 where name.isASCII(caseInsensitivelyEqualTo: "x-forwarded-for"):
            if forwardedFor == nil { forwardedFor = value() }
        case 12 where name.isASCII(caseInsensitivelyEqualTo: InternalHeader.requestID):
            requestID = value()
        case 7 where name.isASCII(caseInsensitivelyEqualTo: "upgrade"),
            17 where name.isASCII(caseInsensitivelyEqualTo: "transfer-encoding"),
            6 where name.isASCII(caseInsensitivelyEqualTo: "expect"):
            return false
        case 10 where name.isASCII(caseInsensitivelyEqualTo: "connection"):
            if value().utf8.containsASCII(caseInsensitively: "close") { return false }
        default:
            break
        }
        return true
    }
}
