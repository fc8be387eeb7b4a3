import NIOHTTP1
import ServiceKit

@testable import Gateway

/// What a fake service received, read as NIO's headers (the tests ask by name, any case).
extension UpstreamRequestHead {
    var headers: HTTPHeaders {
        var headers = HTTPHeaders()
        fieldLines.withUnsafeReadableBytes { lines in
            HTTP1Syntax.forEachField(in: lines) { name, value, _ in
                headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
            }
        }
        return headers
    }
}
