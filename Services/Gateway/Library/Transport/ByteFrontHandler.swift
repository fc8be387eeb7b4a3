import Contracts
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// The gateway's connections start here, ahead of HTTP decoding. The common request (a head in
/// the plain form, a small body of known length, a route the policy admits to a service at once)
/// is read from the connection's bytes and its answer written as bytes: no HTTP codec on the
/// client's side, whose parts, string headers and handler calls per part were most of the
/// gateway's own time per request (Benchmarks/README). The policy, the forwarding and the answer's
/// rewriting are the direct path's (`DirectForward`). The first request that is anything else (an
/// upgrade, a chunked or large body, `Expect`, `Connection: close`, HTTP/1.0, `HEAD`, a refusal,
/// a head out of the plain form; a key not cached is first asked of auth-svc here) hands the
/// connection, from that request on,
/// to NIO's decoder and a `DirectForwardHandler`, which answer everything. One request at a
/// time: a pipelining client's next request waits in the buffer until the answer is out.
/// With front loops (the running gateway), a connection whose first request is direct to a
/// service the loops carry moves to a loop instead (`FrontLoops`); this handler then answers only
/// the direct requests of connections that stay (chat-svc with several replicas, tests without
/// live pools).
final class ByteFrontHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private struct Current {
        var forward: DirectForward
        var start: ContinuousClock.Instant
    }

    private let policy: GatewayPolicy
    private let upstream: Upstream
    /// Where a connection moves at its first plain request (nil: answered here, as in tests with a fake upstream).
    private let loops: FrontLoops?
    private let metrics: RequestMetrics
    private let logger: Logger
    private let accessLogged: Bool
    private let idleTimeout: TimeAmount
    /// Handed to the `DirectForwardHandler` that takes over, which completes it when Hummingbird
    /// gets its first request; failed when the connection ends first.
    private var routerStarted: EventLoopPromise<Void>?
    private var input = FrontInput()
    /// The request whose head was taken, until its answer is written.
    private var current: Current?
    private var answering = false
    /// A key is being asked of auth-svc for the request at the start of the input.
    private var resolving = false
    /// The key last asked for this connection, until a request is admitted: asked once per request.
    private var askedKey: String?
    private var handedOff = false
    /// Whether an answer was written: a connection moves to a loop only before that (NIO may
    /// still hold an answer's bytes the kernel has not taken, and closing the channel drops them).
    private var answeredAny = false
    private var remoteIP: String?
    private var dates = HTTPDateCache()
    private var idleTimer: IdleTimer?

    init(
        policy: GatewayPolicy, upstream: Upstream, loops: FrontLoops?, metrics: RequestMetrics, logger: Logger, routerStarted: EventLoopPromise<Void>
    ) {
        self.policy = policy
        self.upstream = upstream
        self.loops = loops
        self.metrics = metrics
        self.logger = logger
        self.accessLogged = logger.logLevel <= .info
        self.idleTimeout = .seconds(Int64(policy.configuration.idleTimeoutSeconds))
        self.routerStarted = routerStarted
    }

    /// No request being read or answered. A head still arriving counts as idle, so a head that
    /// never completes ends with the timeout.
    private var isIdle: Bool { current == nil }

    func handlerAdded(context: ChannelHandlerContext) {
        remoteIP = context.channel.remoteAddress?.ipAddress
        idleTimer = IdleTimer(timeout: idleTimeout) { [weak self] in self?.isIdle ?? false }
        idleTimer?.becameIdle(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleTimer?.stop()
        routerStarted?.fail(ChannelError.ioOnClosedChannel)
        routerStarted = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        input.append(unwrapInboundIn(data))
        take(context: context)
    }

    /// Takes requests from what was read, as long as none is being answered.
    private func take(context: ChannelHandlerContext) {
        while !answering, !resolving, !handedOff, var buffer = input.received {
            // Taken out while it is read, so that it stays uniquely referenced.
            input.received = nil
            if current == nil {
                switch PlainRequestHead.scan(buffer) {
                case .incomplete:
                    input.received = buffer
                    return
                case .unusual:
                    input.received = buffer
                    return handOff(context: context)
                case .head(let head, let length):
                    guard let forward = DirectForward(head, remoteIP: remoteIP, policy: policy) else {
                        input.received = buffer
                        if let key = head.facts?.appKey, key != askedKey, policy.apps.cached(key) == nil {
                            return resolve(key, context: context)
                        }
                        return handOff(context: context)
                    }
                    askedKey = nil
                    buffer.moveReaderIndex(forwardBy: length)
                    if !answeredAny, let loops, loops.serves(forward.service), let descriptor = FrontLoops.duplicateDescriptor(of: context.channel) {
                        return moveToLoop(loops, descriptor, forward, rest: buffer, context: context)
                    }
                    current = Current(forward: forward, start: .now)
                }
            }
            guard let forward = current?.forward, buffer.readableBytes >= forward.bodyLength else {
                input.received = buffer
                return
            }
            let body = buffer.readSlice(length: forward.bodyLength)!
            if buffer.readableBytes > 0 { input.received = buffer }
            answering = true
            send(forward, body: body, context: context)
        }
    }

    /// A key the cache does not know (a new client, or the cache's time for it ran out): asked of
    /// auth-svc as the router would, then the request is taken again. Without this a connection
    /// would leave the front the first time its key expired, and long-lived ones would all end
    /// up behind NIO's decoder. A key asked once and still not admitted goes the general way.
    private func resolve(_ key: String, context: ChannelHandlerContext) {
        askedKey = key
        resolving = true
        let apps = policy.apps
        let target = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        Task {
            // A failure is the router's to answer (it asks again, and says auth-svc is unavailable).
            _ = try? await apps.resolve(key)
            target.eventLoop.execute {
                let (handler, context) = target.value
                handler.resolved(context: context)
            }
        }
    }

    private func resolved(context: ChannelHandlerContext) {
        resolving = false
        guard context.channel.isActive else { return }
        take(context: context)
        // Reading paused while the key was asked (a large body kept arriving): the request may need the rest.
        if !answering, !handedOff { input.resume(context: context) }
    }

    private func send(_ forward: DirectForward, body: ByteBuffer, context: ChannelHandlerContext) {
        let request = UpstreamRequest(head: forward.head, body: body.readableBytes > 0 ? .bytes(body) : .none)
        upstream.forward(forward.service, request, context.eventLoop).assumeIsolated().whenComplete { result in
            let allocator = context.channel.allocator
            var bytes = allocator.buffer(capacity: 512)
            let answer = forward.writeClientAnswer(result, policy: self.policy, dates: &self.dates, to: &bytes)
            switch answer.body {
            case .whole(let body):
                context.write(self.wrapOutboundOut(bytes), promise: nil)
                if answer.framing == .length, body.readableBytes > 0 { context.write(self.wrapOutboundOut(body), promise: nil) }
                context.flush()
                self.finished(status: answer.status, context: context)
            case .stream(let stream):
                context.writeAndFlush(self.wrapOutboundOut(bytes), promise: nil)
                context.relay(stream, wrap: { NIOAny(answer.framing.frame($0, allocator: allocator)) }) {
                    self.finished(status: answer.status, context: context)
                }
            }
        }
    }

    /// The connection goes to a front loop with its first request, whose head was read.
    private func moveToLoop(_ loops: FrontLoops, _ descriptor: Int32, _ forward: DirectForward, rest: ByteBuffer, context: ChannelHandlerContext) {
        handedOff = true
        idleTimer?.stop()
        context.close(promise: nil)
        loops.adopt(descriptor, input: rest, first: forward, start: .now, remoteIP: remoteIP)
    }

    private func finished(status: Int, context: ChannelHandlerContext) {
        guard let done = current else { return }
        answeredAny = true
        current = nil
        answering = false
        done.forward.ended(status: status, since: done.start, metrics: metrics, policy: policy, accessLog: accessLogged ? logger : nil)
        guard input.answered(context: context) else { return }
        take(context: context)
        if handedOff { return }
        if !answering { input.resume(context: context) }
        if isIdle { idleTimer?.becameIdle(context: context) }
    }

    /// From the request at the start of the input on, the connection is NIO's decoder's and a
    /// `DirectForwardHandler`'s; this handler leaves.
    private func handOff(context: ChannelHandlerContext) {
        handedOff = true
        idleTimer?.stop()
        guard let routerStarted else { return context.close(promise: nil) }
        self.routerStarted = nil
        let next = DirectForwardHandler(policy: policy, upstream: upstream, metrics: metrics, logger: logger, routerStarted: routerStarted)
        do {
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(next, position: .after(pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)))
        } catch {
            routerStarted.fail(error)
            return context.close(promise: nil)
        }
        input.passOn(context: context)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        input.read(context: context, busy: answering || resolving)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        input.quiesce(context: context, busy: current != nil)
    }
}
