import Contracts
import NIOCore
import NIOHTTP1
import ServiceKit

/// Services' answers in the calling app's dialect.
extension GatewayPolicy {
    /// A service's answer in hand: errors become the app's dialect (a canonical body's code, or
    /// the code the status stands for); anything else passes as is.
    func answer(_ head: UpstreamHead, _ body: ByteBuffer, app: AppInfo?, paginated: Bool = false) -> RenderedAnswer {
        if let canonical = Self.canonicalError(head, body) {
            return DialectRenderer.rendered(for: canonical, app: app, paginated: paginated)
        }
        return RenderedAnswer(status: .init(code: Int(head.status.code)), headers: responseFields(head.headers), body: body)
    }

    /// The same as the client gets it, in NIO's form (the direct path).
    func clientAnswer(
        _ head: UpstreamHead, _ body: ByteBuffer, app: AppInfo?, paginated: Bool = false, requestID: String, dates: inout HTTPDateCache
    ) -> (HTTPResponseHead, ByteBuffer) {
        if let canonical = Self.canonicalError(head, body) {
            return clientAnswer(DialectRenderer.rendered(for: canonical, app: app, paginated: paginated), requestID: requestID, dates: &dates)
        }
        return (clientHead(head.http, length: body.readableBytes, requestID: requestID, dates: &dates), body)
    }

    /// When the service cannot be reached.
    func unavailable(_ service: ServiceName, app: AppInfo?, paginated: Bool = false) -> RenderedAnswer {
        DialectRenderer.rendered(for: ServiceError.unavailable(service).canonical, app: app, paginated: paginated)
    }

    /// Whether a service's answer reaches the client as the service wrote it: anything but an
    /// error, and an error answered as a page (`text/html`: the operator console's).
    static func passesAsIs(_ head: UpstreamHead) -> Bool {
        head.status.code < 400 || head.value(of: "content-type")?.hasPrefix("text/html") == true
    }

    private static func canonicalError(_ head: UpstreamHead, _ body: ByteBuffer) -> CanonicalError? {
        guard !passesAsIs(head) else { return nil }
        if let error = try? JSONCoding.decoder.decode(CanonicalError.self, from: body) { return error }
        return CanonicalError(code: .standing(for: Int(head.status.code)), message: head.status.reasonPhrase)
    }
}
