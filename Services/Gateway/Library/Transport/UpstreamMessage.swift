import Hummingbird
import NIOCore
import NIOHTTP1

/// A request as the gateway forwards it: the head already carries the internal headers; the body
/// is either in hand (small bodies, collected) or streamed from the client.
struct UpstreamRequest: Sendable {
    enum Body: Sendable {
        case none
        case bytes(ByteBuffer)
        case stream(LimitedBody<RequestBody>)
    }

    var head: UpstreamRequestHead
    var body: Body
}

/// A streamed request body's parts as they are written to a pooled connection, which frames them.
enum UpstreamBodyPart: Sendable {
    case part(ByteBuffer)
    case end
}

/// A service's answer. Bodies with a known length up to `UpstreamResponse.bufferedLimit` arrive
/// whole (most JSON answers, and every error the gateway may rewrite); others stream.
struct UpstreamResponse: Sendable {
    enum Body: Sendable {
        case buffered(ByteBuffer)
        case stream(UpstreamBodyStream)
    }

    static let bufferedLimit = 256 << 10

    var head: UpstreamHead
    var body: Body

    init(head: UpstreamHead, body: Body) {
        self.head = head
        self.body = body
    }

    init(head: HTTPResponseHead, body: Body) {
        self.init(head: UpstreamHead(head), body: body)
    }
}
