import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A service's connections start here, ahead of HTTP decoding (`FrontedChannel<HTTP1Channel>`). The common request (a head in the plain form, a body of known length up to
/// `maxBody`) is read from the connection's bytes, given to the router as Hummingbird would give
/// it, and its answer written as bytes: NIO's HTTP codec, the conversion to Hummingbird's types
/// and the async channel between them were most of a service's own time per request on the read
/// path (Benchmarks/README). The first request that is anything else (an upgrade, a chunked or
/// larger body, `Expect`, `Connection: close`, HTTP/1.0, `HEAD`, a head out of the plain form)
/// hands the connection, from that request on, to Hummingbird's HTTP/1 channel behind this
/// handler. One request at a time: a pipelining client's next request waits in the buffer until
/// the answer is out.
final class ServiceByteFront: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Larger bodies (uploads) are Hummingbird's, which hands them to the route as they arrive.
    static let maxBody = 1 << 20

    /// A request whose head was read, waiting for the rest of its body.
    private struct Pending {
        var head: HTTPRequest
        var bodyLength: Int
    }

    private let responder: RouterResponder<GlintRequestContext>
    private let logger: Logger
    private let serverName: String
    /// Completed when the connection is handed to Hummingbird; failed when it ends first.
    private var routerStarted: EventLoopPromise<Void>?
    private var input = FrontInput()
    private var pending: Pending?
    private var answering = false
    /// How the answer being sent in parts is framed (a large or streamed body).
    private var streaming: BodyFraming?
    private var handedOff = false
    private var dates = HTTPDateCache()

    init(responder: RouterResponder<GlintRequestContext>, logger: Logger, serverName: String, routerStarted: EventLoopPromise<Void>) {
        self.responder = responder
        self.logger = logger
        self.serverName = serverName
        self.routerStarted = routerStarted
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        routerStarted?.fail(ChannelError.ioOnClosedChannel)
        routerStarted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        input.append(unwrapInboundIn(data))
        take(context: context)
    }

    /// Takes requests from what was read, as long as none is being answered.
    private func take(context: ChannelHandlerContext) {
        while !answering, !handedOff, var buffer = input.received {
            // Taken out while it is read, so that it stays uniquely referenced.
            input.received = nil
            if pending == nil {
                switch PlainRequestHead.scan(buffer) {
                case .incomplete:
                    input.received = buffer
                    return
                case .unusual:
                    input.received = buffer
                    return handOff(context: context)
                case .head(let head, let length):
                    guard let request = Self.pending(head) else {
                        input.received = buffer
                        return handOff(context: context)
                    }
                    buffer.moveReaderIndex(forwardBy: length)
                    pending = request
                }
            }
            guard let request = pending, buffer.readableBytes >= request.bodyLength else {
                input.received = buffer
                return
            }
            let body = buffer.readSlice(length: request.bodyLength)!
            if buffer.readableBytes > 0 { input.received = buffer }
            pending = nil
            answering = true
            respond(to: request.head, body: body, context: context)
        }
    }

    /// The head as Hummingbird's HTTP/1 channel makes it (the first `Host` as the authority), if
    /// this handler may answer it.
    private static func pending(_ head: borrowing PlainRequestHead) -> Pending? {
        guard head.method != "HEAD", let facts = head.facts, let method = HTTPRequest.Method(head.method) else {
            return nil
        }
        var bodyLength = 0
        if let length = facts.contentLength {
            guard (1...7).contains(length.utf8.count), length.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(length),
                value <= maxBody
            else { return nil }
            bodyLength = value
        }
        var fields = HTTPFields()
        fields.reserveCapacity(16)
        var authority: String?
        var named = true
        head.forEachField { name, value, _ in
            if authority == nil, name.isASCII(caseInsensitivelyEqualTo: "host") {
                authority = String(decoding: value, as: UTF8.self)
            } else if let name = HTTPField.Name(String(decoding: name, as: UTF8.self)) {
                fields.append(HTTPField(name: name, value: String(decoding: value, as: UTF8.self)))
            } else {
                named = false
            }
        }
        guard named else { return nil }
        let request = HTTPRequest(method: method, scheme: "http", authority: authority, path: head.target, headerFields: fields)
        return Pending(head: request, bodyLength: bodyLength)
    }

    /// The router's answer, written back on this connection's loop as it comes.
    private func respond(to head: HTTPRequest, body: ByteBuffer, context: ChannelHandlerContext) {
        let target = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let source = ApplicationRequestContextSource(channel: context.channel, logger: logger)
        let (responder, logger) = (self.responder, self.logger)
        Task {
            let response: Response
            do {
                response = try await responder.respond(
                    to: Request(head: head, body: RequestBody(buffer: body)), context: GlintRequestContext(source: source))
            } catch {
                // As Hummingbird answers what no middleware turned into an answer.
                logger.debug("Unrecognised Error", metadata: ["error.type": "\(error)"])
                response = Response(status: .internalServerError)
            }
            let send: @Sendable (FrontAnswerPart) async throws -> Void = { part in
                try await target.eventLoop.flatSubmit { target.value.handler.send(part, context: target.value.context) }.get()
            }
            do {
                try await response.body.write(FrontBodyWriter(head: response.head, send: send))
            } catch {
                target.eventLoop.execute { target.value.handler.failed(context: target.value.context) }
            }
        }
    }

    /// Writes a part of the answer; the future completes when it is written (the body's
    /// producer waits for it, so a large file is read no faster than the connection takes it).
    private func send(_ part: FrontAnswerPart, context: ChannelHandlerContext) -> EventLoopFuture<Void> {
        guard context.channel.isActive else { return context.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        let allocator = context.channel.allocator
        var bytes: ByteBuffer
        switch part {
        case .whole(let head, let body):
            let framing: BodyFraming = Self.hasBody(head.status) ? .length : .none
            bytes = writeHead(head, framing: framing, length: body?.readableBytes ?? 0, allocator: allocator)
            if framing == .length, var body { bytes.writeBuffer(&body) }
            let written = context.writeAndFlush(wrapOutboundOut(bytes))
            finished(context: context)
            return written
        case .start(let head, let first):
            let framing: BodyFraming = !Self.hasBody(head.status) ? .none : head.headerFields[.contentLength] != nil ? .length : .chunked
            streaming = framing
            bytes = writeHead(head, framing: framing, length: nil, allocator: allocator)
            var frame = framing.frame(first, allocator: allocator)
            bytes.writeBuffer(&frame)
        case .part(let part):
            bytes = (streaming ?? .none).frame(part, allocator: allocator)
        case .end:
            bytes = streaming == .chunked ? BodyFraming.chunked.frame(nil, allocator: allocator) : allocator.buffer(capacity: 0)
            streaming = nil
            let written = context.writeAndFlush(wrapOutboundOut(bytes))
            finished(context: context)
            return written
        }
        return context.writeAndFlush(wrapOutboundOut(bytes))
    }

    /// The head as Hummingbird's channel writes it: the route's fields, then the length (of a body
    /// in hand) or chunked framing, `Date` and `Server` (set as Hummingbird sets them).
    private func writeHead(_ head: HTTPResponse, framing: BodyFraming, length: Int?, allocator: ByteBufferAllocator) -> ByteBuffer {
        var bytes = allocator.buffer(capacity: 256)
        bytes.writeStatusLine(HTTPResponseStatus(statusCode: head.status.code, reasonPhrase: head.status.reasonPhrase))
        for field in head.headerFields {
            switch field.name {
            case .date, .server, .transferEncoding: continue
            case .contentLength where length != nil || framing != .length: continue
            default: bytes.writeField(field.name.rawName, field.value)
            }
        }
        switch framing {
        case .length: if let length { bytes.writeField("Content-Length", String(length)) }
        case .chunked: bytes.writeStaticString("Transfer-Encoding: chunked\r\n")
        case .none: break
        }
        bytes.writeField("Date", dates.now())
        bytes.writeField("Server", serverName)
        bytes.writeStaticString("\r\n")
        return bytes
    }

    /// 1xx, 204 and 304 answers have no body (RFC 9110 §6.4.1).
    private static func hasBody(_ status: HTTPResponse.Status) -> Bool {
        status.code >= 200 && status.code != 204 && status.code != 304
    }

    private func finished(context: ChannelHandlerContext) {
        answering = false
        guard input.answered(context: context) else { return }
        take(context: context)
        if !answering, !handedOff { input.resume(context: context) }
    }

    /// The answer could not be made or sent whole: the connection cannot carry another.
    private func failed(context: ChannelHandlerContext) {
        answering = false
        context.close(promise: nil)
    }

    /// From the request at the start of the input on, the connection is Hummingbird's; this
    /// handler leaves.
    private func handOff(context: ChannelHandlerContext) {
        handedOff = true
        guard let routerStarted else { return context.close(promise: nil) }
        self.routerStarted = nil
        routerStarted.succeed()
        input.passOn(context: context)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        input.read(context: context, busy: answering)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        input.quiesce(context: context, busy: answering || pending != nil)
    }
}
