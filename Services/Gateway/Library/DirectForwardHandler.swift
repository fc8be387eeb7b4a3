import Contracts
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import ServiceKit

/// The gateway's common case on the client connection's event loop, without the router: a
/// request `ProxyController.directForward` accepts is collected, forwarded over a pooled
/// connection of the same event loop and answered from there. Everything else (refusals, uploads,
/// `/health`, unknown keys) passes on to the router, which answers in order: requests that
/// arrive while a direct one is being answered wait here, and a direct one is only started when
/// the router owes no answer on this connection.
final class DirectForwardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Reading {
        case idle
        case direct(HTTPRequest, DirectForward, ByteBuffer)
        case passed
    }

    private struct InFlight {
        var request: HTTPRequest
        var forward: DirectForward
        var start: ContinuousClock.Instant
    }

    private let proxy: ProxyController
    private let metrics: RequestMetrics
    private let logger: Logger
    private var reading = Reading.idle
    private var inFlight: InFlight?
    /// Requests handed to the router whose answer has not ended.
    private var passedOpen = 0
    private var queued = CircularBuffer<HTTPRequestPart>()
    private var readPending = false
    private var quiesceHeld = false

    init(proxy: ProxyController, metrics: RequestMetrics, logger: Logger) {
        self.proxy = proxy
        self.metrics = metrics
        self.logger = logger
    }

    /// A direct request has been read whole and is being answered: what follows must wait.
    private var waitingForAnswer: Bool {
        guard inFlight != nil, case .idle = reading else { return false }
        return true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if waitingForAnswer || !queued.isEmpty {
            queued.append(part)
        } else {
            handle(part, context: context)
        }
    }

    private func handle(_ part: HTTPRequestPart, context: ChannelHandlerContext) {
        switch (part, reading) {
        case (.head(let request), .idle):
            if passedOpen == 0, let forward = proxy.directForward(request, remoteAddress: context.channel.remoteAddress) {
                reading = .direct(request, forward, context.channel.allocator.buffer(capacity: forward.bodyLength))
                inFlight = InFlight(request: request, forward: forward, start: .now)
            } else {
                reading = .passed
                passedOpen += 1
                context.fireChannelRead(wrapInboundOut(part))
            }
        case (.body(var bytes), .direct(let request, let forward, var body)):
            reading = .idle  // lets `body` grow in place
            body.writeBuffer(&bytes)
            reading = .direct(request, forward, body)
        case (.end, .direct(_, let forward, let body)):
            reading = .idle
            send(forward, body: body, context: context)
        case (.end, .passed):
            reading = .idle
            context.fireChannelRead(wrapInboundOut(part))
        default:
            // The router's part, or out of order (the router reports that).
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    private func send(_ forward: DirectForward, body: ByteBuffer, context: ChannelHandlerContext) {
        let request = UpstreamRequest(head: forward.head, body: body.readableBytes > 0 ? .bytes(body) : .none)
        proxy.upstream.forward(forward.service, request, context.eventLoop).assumeIsolated().whenComplete { result in
            switch result {
            case .success(let response):
                switch response.body {
                case .buffered(let buffer):
                    self.write(self.proxy.answer(response.head, buffer, app: forward.app), context: context)
                case .stream(let stream):
                    self.stream(response.head, stream, context: context)
                }
            case .failure:
                self.write(self.proxy.unavailable(forward.service, app: forward.app), context: context)
            }
        }
    }

    private func write(_ answer: RenderedAnswer, context: ChannelHandlerContext) {
        var headers = answer.headers
        headers[.contentLength] = String(answer.body.readableBytes)
        writeHead(answer.status, headers, context: context)
        if answer.body.readableBytes > 0 { context.write(wrapOutboundOut(.body(answer.body)), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        finished(status: answer.status.code, context: context)
    }

    private func writeHead(_ status: HTTPResponse.Status, _ headers: HTTPFields, context: ChannelHandlerContext) {
        var headers = headers
        if let inFlight { headers[RequestIDMiddleware.header] = inFlight.forward.requestID }
        // As the router's answers say (a service's own `Server` would say which service answered).
        headers[.server] = proxy.common.service.rawValue
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: headers))), promise: nil)
    }

    /// A large answer: passed on part by part, each written before the next is taken, so a slow
    /// client slows the service's connection rather than filling memory.
    private func stream(_ head: HTTPResponseHead, _ stream: UpstreamBodyStream, context: ChannelHandlerContext) {
        let status = HTTPResponse.Status(code: Int(head.status.code))
        writeHead(status, proxy.responseHeaders(head.headers), context: context)
        context.flush()
        let target = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        Task {
            do {
                for try await part in stream {
                    try await target.eventLoop.flatSubmit {
                        target.value.context.writeAndFlush(target.value.handler.wrapOutboundOut(.body(part)))
                    }.get()
                }
                target.eventLoop.execute {
                    target.value.context.writeAndFlush(target.value.handler.wrapOutboundOut(.end(nil)), promise: nil)
                    target.value.handler.finished(status: status.code, context: target.value.context)
                }
            } catch {
                // The service or the client went away mid-answer: the client sees a cut answer.
                target.eventLoop.execute { target.value.context.close(promise: nil) }
            }
        }
    }

    private func finished(status: Int, context: ChannelHandlerContext) {
        guard let done = inFlight else { return }
        inFlight = nil
        metrics.record(method: done.request.method.rawValue, route: done.forward.route, status: status, since: done.start)
        if logger.logLevel <= .info {
            AccessLogMiddleware.log(
                to: logger, level: .info, method: done.request.method, path: String(done.forward.path), status: status, since: done.start,
                metadata: ["request_id": .string(done.forward.requestID)]
            )
        }
        if !queued.isEmpty {
            while !queued.isEmpty, !waitingForAnswer {
                handle(queued.removeFirst(), context: context)
            }
            // The router takes what it was given when a read burst completes.
            context.fireChannelReadComplete()
        }
        if !waitingForAnswer {
            if quiesceHeld {
                quiesceHeld = false
                context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
            if readPending {
                readPending = false
                context.read()
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only the router's writes come through here (the direct path writes past this handler).
        // (An answer to a request that failed to parse was never counted.)
        if case .end = unwrapOutboundIn(data) { passedOpen = max(0, passedOpen - 1) }
        context.write(data, promise: promise)
    }

    func read(context: ChannelHandlerContext) {
        if waitingForAnswer {
            readPending = true
        } else {
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Graceful shutdown closes idle connections; this one is not idle until its answer is out.
        if event is ChannelShouldQuiesceEvent, inFlight != nil {
            quiesceHeld = true
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
