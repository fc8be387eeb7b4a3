import Contracts
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// A connection's requests once `ByteFrontHandler` has handed it over, right after HTTP decoding
/// (see `FrontedHTTP1Channel`), on the client connection's event loop: a small request the policy
/// admits with what it knows at once (a cached key) is collected in NIO's form, forwarded over a
/// pooled connection of the same event loop and answered from there, with no conversion to
/// Hummingbird's types and no router. A `/socket.io/` WebSocket upgrade is handed to
/// `SocketSpliceHandler`. Everything else (refusals, uploads, `/health`, unknown keys, other
/// upgrades) passes on to Hummingbird, which answers in order: requests that arrive while a
/// direct one is being answered wait here, and a direct one is only started when the router owes
/// no answer on this connection.
final class DirectForwardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Reading {
        case idle
        /// The body of `inFlight`'s request.
        case direct(ByteBuffer)
        case passed
        /// A `/socket.io/` WebSocket upgrade, to splice once its request has ended.
        case upgrading(HTTPRequestHead)
    }

    private struct InFlight {
        var forward: DirectForward
        var start: ContinuousClock.Instant
    }

    private let policy: GatewayPolicy
    private let upstream: Upstream
    private let metrics: RequestMetrics
    private let logger: Logger
    private let accessLogged: Bool
    private var reading = Reading.idle
    private var inFlight: InFlight?
    /// Requests handed to the router whose answer has not ended.
    private var passedOpen = 0
    private var queued = CircularBuffer<HTTPServerRequestPart>()
    private var readPending = false
    private var quiesceHeld = false
    /// Completed when the first request goes to Hummingbird, which sets up its side of the
    /// connection only then; failed when the connection ends before that.
    private var routerStarted: EventLoopPromise<Void>?
    /// The peer's address as text, made once: it is the same for every request of the connection.
    private var remoteIP: String?
    private var dates = HTTPDateCache()
    /// After an upgrade request everything belongs to Hummingbird's upgrade handling.
    private var left = false
    private let idleTimeout: TimeAmount
    private var idleTimer: IdleTimer?
    /// The router answered a request whose body is still arriving (an upload refused early):
    /// Hummingbird reads the rest to keep the connection, for as long as the client sends. As
    /// nginx's `lingering_time`, that lasts the idle timeout at most, then the connection closes.
    private var lingering: Scheduled<Void>?

    init(policy: GatewayPolicy, upstream: Upstream, metrics: RequestMetrics, logger: Logger, routerStarted: EventLoopPromise<Void>) {
        self.policy = policy
        self.upstream = upstream
        self.metrics = metrics
        self.logger = logger
        self.accessLogged = logger.logLevel <= .info
        self.routerStarted = routerStarted
        self.idleTimeout = .seconds(Int64(policy.configuration.idleTimeoutSeconds))
    }

    /// A direct request has been read whole and is being answered: what follows must wait.
    private var waitingForAnswer: Bool {
        guard case .idle = reading else { return false }
        return inFlight != nil
    }

    /// Nothing under way: no request being read or answered on either path. A request head
    /// still being received counts as idle, so a head that never completes ends with the timeout.
    private var isIdle: Bool {
        guard inFlight == nil, passedOpen == 0, queued.isEmpty, case .idle = reading else { return false }
        return true
    }

    func handlerAdded(context: ChannelHandlerContext) {
        remoteIP = context.channel.remoteAddress?.ipAddress
        idleTimer = IdleTimer(timeout: idleTimeout) { [weak self] in self?.isIdle ?? false }
        idleTimer?.becameIdle(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTimer?.stop()
        lingering?.cancel()
        routerStarted?.fail(ChannelError.ioOnClosedChannel)
        routerStarted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if waitingForAnswer || !queued.isEmpty {
            queued.append(part)
        } else {
            handle(part, context: context)
        }
    }

    private func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch (part, reading) {
        case (.head(let head), .idle):
            if passedOpen == 0, let forward = DirectForward(head, remoteIP: remoteIP, policy: policy) {
                reading = .direct(context.channel.allocator.buffer(capacity: forward.bodyLength))
                inFlight = InFlight(forward: forward, start: .now)
            } else if passedOpen == 0, routerStarted != nil, SocketSpliceHandler.isSocketIOWebSocket(head) {
                // Only while Hummingbird has not seen the connection (its handlers are then all
                // NIO's, which a splice can take out); later upgrades Hummingbird redirects to a
                // new connection.
                reading = .upgrading(head)
            } else {
                passToRouter(head, context: context)
            }
        case (.body(var bytes), .direct(var body)):
            reading = .idle  // lets `body` grow in place
            body.writeBuffer(&bytes)
            reading = .direct(body)
        case (.end, .direct(let body)):
            reading = .idle
            if let forward = inFlight?.forward { send(forward, body: body, context: context) }
        case (.end, .upgrading(let head)):
            left = true
            let splice = SocketSpliceHandler(
                head, remoteIP: remoteIP, policy: policy, upstream: upstream, metrics: metrics, logger: logger
            )
            do {
                try context.pipeline.syncOperations.addHandler(splice, position: .after(self))
                // Reading may have paused while the upgrade waited its turn.
                if readPending { context.read() }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            } catch {
                context.close(promise: nil)
            }
        case (.end, .passed):
            reading = .idle
            lingering?.cancel()
            lingering = nil
            context.fireChannelRead(wrapInboundOut(part))
        default:
            // The router's part, or out of order (the router reports that).
            context.fireChannelRead(wrapInboundOut(part))
        }
    }

    private func passToRouter(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        reading = .passed
        passedOpen += 1
        routerStarted?.succeed()
        routerStarted = nil
        context.fireChannelRead(wrapInboundOut(.head(head)))
        if head.headers.contains(name: "upgrade") { leave(context: context) }
    }

    /// Hands the rest of the connection to Hummingbird's upgrade handling (which replaces the
    /// HTTP handlers when it upgrades, and would not expect this one among them).
    private func leave(context: ChannelHandlerContext) {
        left = true
        idleTimer?.stop()
        while !queued.isEmpty { context.fireChannelRead(wrapInboundOut(queued.removeFirst())) }
        context.fireChannelReadComplete()
        if quiesceHeld { context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        if readPending { context.read() }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func send(_ forward: DirectForward, body: ByteBuffer, context: ChannelHandlerContext) {
        let request = UpstreamRequest(head: forward.head, body: body.readableBytes > 0 ? .bytes(body) : .none)
        upstream.forward(forward.service, request, context.eventLoop).assumeIsolated().whenComplete { result in
            switch forward.clientAnswer(result, policy: self.policy, dates: &self.dates) {
            case .whole(let head, let body):
                context.writeAnswer(head, body)
                self.finished(status: Int(head.status.code), context: context)
            case .stream(let head, let stream):
                context.writeAndFlush(self.wrapOutboundOut(.head(head)), promise: nil)
                context.relay(stream, wrap: { part in NIOAny(part.map { HTTPServerResponsePart.body(.byteBuffer($0)) } ?? .end(nil)) }) {
                    self.finished(status: Int(head.status.code), context: context)
                }
            }
        }
    }

    private func finished(status: Int, context: ChannelHandlerContext) {
        guard let done = inFlight else { return }
        inFlight = nil
        done.forward.ended(status: status, since: done.start, metrics: metrics, policy: policy, accessLog: accessLogged ? logger : nil)
        replayQueued(context: context)
    }

    /// Parts that waited for an answer (or a key) go on, in order, until one has to wait again.
    private func replayQueued(context: ChannelHandlerContext) {
        if !queued.isEmpty {
            while !queued.isEmpty, !waitingForAnswer, !left {
                handle(queued.removeFirst(), context: context)
            }
            if left { return }
            // The router takes what it was given when a read burst completes.
            context.fireChannelReadComplete()
        }
        if quiesceHeld, !waitingForAnswer {
            quiesceHeld = false
            quiesce(context: context)
        }
        if readPending, queued.isEmpty {
            readPending = false
            context.read()
        }
        if isIdle { idleTimer?.becameIdle(context: context) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only the router's writes come through here (the direct path writes past this handler).
        // (An answer to a request that failed to parse was never counted.)
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        passedOpen = max(0, passedOpen - 1)
        context.write(data, promise: promise)
        if case .passed = reading, lingering == nil {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            lingering = context.eventLoop.scheduleTask(in: idleTimeout) { bound.value.close(promise: nil) }
        }
        if isIdle { idleTimer?.becameIdle(context: context) }
    }

    func read(context: ChannelHandlerContext) {
        // Reading goes on while an answer is awaited (clients that wait for it send nothing
        // meanwhile, and pausing and resuming would cost system calls); it stops once parts
        // have to wait here, so at most one read's worth queues.
        if !queued.isEmpty {
            readPending = true
        } else {
            context.read()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        // Graceful shutdown closes idle connections; this one is not idle until its answer is out.
        if inFlight != nil {
            quiesceHeld = true
        } else {
            quiesce(context: context)
        }
    }

    private func quiesce(context: ChannelHandlerContext) {
        if routerStarted != nil {
            // Nothing behind this handler has seen the connection, so nothing else would close it.
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}
