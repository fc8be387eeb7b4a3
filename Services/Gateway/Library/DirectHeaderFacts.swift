import HTTPTypes
import ServiceKit

/// What the direct path needs from a request's headers, read in one pass. nil when a header
/// rules the direct path out: an upgrade, a chunked body, `Connection: close`, or a repeated
/// length or key (the general path answers those).
struct DirectHeaderFacts {
    var contentLength: String?
    var appKey: String?
    var forwardedFor: String?
    var requestID: String?

    init?(_ fields: HTTPFields) {
        for field in fields {
            switch field.name {
            case .contentLength:
                guard contentLength == nil else { return nil }
                contentLength = field.value
            case .sesacKey:
                guard appKey == nil else { return nil }
                appKey = field.value
            case .forwardedFor:
                if forwardedFor == nil { forwardedFor = field.value }
            case RequestIDMiddleware.header:
                requestID = field.value
            case .upgrade, .transferEncoding:
                return nil
            case .connection:
                if field.value.lowercased().contains("close") { return nil }
            default:
                break
            }
        }
    }
}
