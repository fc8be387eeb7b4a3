import Contracts
import NIOCore
import NIOHTTP1
import ServiceKit

/// Services' answers in the calling app's dialect.
extension GatewayPolicy {
    /// A service's answer in hand: errors become the app's dialect (a canonical body's code, or
    /// the code the status stands for); anything else passes as is.
    func answer(_ head: HTTPResponseHead, _ body: ByteBuffer, app: AppInfo?, paginated: Bool = false) -> RenderedAnswer {
        if let canonical = Self.canonicalError(head, body) {
            return DialectRenderer.rendered(for: canonical, app: app, paginated: paginated)
        }
        return RenderedAnswer(status: .init(code: Int(head.status.code)), headers: responseFields(head.headers), body: body)
    }

    /// The same as the client gets it, in NIO's form (the direct path).
    func clientAnswer(
        _ head: HTTPResponseHead, _ body: ByteBuffer, app: AppInfo?, paginated: Bool = false, requestID: String, dates: inout HTTPDateCache
    ) -> (HTTPResponseHead, ByteBuffer) {
        if let canonical = Self.canonicalError(head, body) {
            return clientAnswer(DialectRenderer.rendered(for: canonical, app: app, paginated: paginated), requestID: requestID, dates: &dates)
        }
        return (clientHead(head, length: body.readableBytes, requestID: requestID, dates: &dates), body)
    }

    /// When the service cannot be reached.
    func unavailable(_ service: ServiceName, app: AppInfo?, paginated: Bool = false) -> RenderedAnswer {
        DialectRenderer.rendered(for: ServiceError.unavailable(service).canonical, app: app, paginated: paginated)
    }

    /// An error answered as a page (`text/html`: the operator console's) is shown as it is.
    private static func canonicalError(_ head: HTTPResponseHead, _ body: ByteBuffer) -> CanonicalError? {
        guard head.status.code >= 400, head.headers.first(name: "content-type")?.hasPrefix("text/html") != true else { return nil }
        if let error = try? JSONCoding.decoder.decode(CanonicalError.self, from: body) { return error }
        return CanonicalError(code: .standing(for: Int(head.status.code)), message: head.status.reasonPhrase)
    }
}
