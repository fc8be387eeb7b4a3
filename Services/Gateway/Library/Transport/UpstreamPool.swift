import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// Keep-alive HTTP/1 connections to one service, at most `maxConnections`. A request takes an
/// idle connection of the event loop it runs on (most recently used first), else opens one there,
/// else takes any idle one, else waits for one to be released. Futures rather than async: the
/// gateway's direct path forwards without leaving the client connection's event loop.
final class UpstreamPool: Sendable {
    private let host: String
    private let port: Int
    private let authority: String
    private let maxConnections: Int
    private let state = NIOLockedValueBox(State())

    /// Succeeds with nil when the waiter is given a free slot to connect itself.
    private typealias Waiter = EventLoopPromise<UpstreamConnection?>

    private struct State {
        var idle: [UpstreamConnection] = []
        var open = 0
        var waiters = CircularBuffer<Waiter>()
        var shutDown = false
    }

    private enum Next {
        case use(UpstreamConnection)
        case connect
        case wait(Waiter)
        case refuse
    }

    init(host: String, port: Int, maxConnections: Int) {
        self.host = host
        self.port = port
        self.authority = "\(host):\(port)"
        self.maxConnections = maxConnections
    }

    /// A WebSocket upgrade, on a connection of its own (it never joins the pool, and does not count
    /// against its limit: the socket stays open as long as the client's): sends `head` and
    /// completes with the service's answer.
    func upgrade(_ head: UpstreamRequestHead, timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<UpgradeAnswer> {
        var written = ByteBuffer()
        _ = UpstreamRequest(head: head, body: .none).writeHead(host: authority, to: &written)
        let request = written
        let promise = eventLoop.makePromise(of: UpgradeAnswer.self)
        ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(2))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // The answer is read by the handshake handler itself (see there).
                    try channel.pipeline.syncOperations.addHandler(UpgradeHandshakeHandler(promise: promise, timeout: timeout))
                }
            }
            .connect(host: host, port: port)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    channel.writeAndFlush(request, promise: nil)
                case .failure(let error):
                    promise.fail(UpstreamError.unreachable(String(describing: error)))
                }
            }
        return promise.futureResult
    }

    /// Sends the request; the answer's head (and body when it is small) completes the future. A
    /// request that fails on a reused connection before any answer arrived, with no streamed body
    /// and an idempotent method, is sent once more on a new connection: the service may have
    /// closed the idle connection just as it was taken.
    func execute(_ request: UpstreamRequest, timeout: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<UpstreamResponse> {
        // Most requests find an idle connection of their event loop: no future until the answer's.
        switch take(on: eventLoop) {
        case .use(let connection):
            return send(request, on: connection, reused: true, timeout: timeout, answerOn: eventLoop)
        case .connect:
            return connect(on: eventLoop).flatMap { self.send(request, on: $0, reused: false, timeout: timeout, answerOn: eventLoop) }
        case .wait(let waiter):
            return waiter.futureResult.flatMap { handedOver in
                if let handedOver { return self.send(request, on: handedOver, reused: true, timeout: timeout, answerOn: eventLoop) }
                return self.connect(on: eventLoop).flatMap { self.send(request, on: $0, reused: false, timeout: timeout, answerOn: eventLoop) }
            }
        case .refuse:
            return eventLoop.makeFailedFuture(UpstreamError.closedBeforeAnswer)
        }
    }

    private func send(
        _ request: UpstreamRequest, on connection: UpstreamConnection, reused: Bool, timeout: TimeAmount, answerOn eventLoop: any EventLoop
    ) -> EventLoopFuture<UpstreamResponse> {
        let answer = connection.send(request, timeout: timeout)
        guard reused, request.isRetryable else { return answer.hop(to: eventLoop) }
        return answer.flatMapError { error in
            guard case UpstreamError.closedBeforeAnswer = error else { return eventLoop.makeFailedFuture(error) }
            self.state.withLockedValue { $0.open += 1 }
            return self.connect(on: eventLoop).flatMap { $0.send(request, timeout: timeout) }
        }.hop(to: eventLoop)
    }

    /// Connections open or being opened.
    var openConnections: Int { state.withLockedValue { $0.open } }

    /// Closes every idle connection and refuses new requests; busy ones close when their answer ends.
    func shutdown() {
        let (idle, waiters) = state.withLockedValue { state in
            state.shutDown = true
            defer { state.idle = []; state.waiters = [] }
            return (state.idle, state.waiters)
        }
        for connection in idle { connection.channel.close(promise: nil) }
        for waiter in waiters { waiter.fail(UpstreamError.closedBeforeAnswer) }
    }

    private func take(on eventLoop: any EventLoop) -> Next {
        state.withLockedValue { state in
            if state.shutDown { return .refuse }
            if let index = state.idle.lastIndex(where: { $0.channel.eventLoop === eventLoop && $0.channel.isActive }) {
                return .use(state.idle.remove(at: index))
            }
            if state.open < maxConnections {
                state.open += 1
                return .connect
            }
            if let any = state.idle.popLast() { return .use(any) }
            let waiter = eventLoop.makePromise(of: UpstreamConnection?.self)
            state.waiters.append(waiter)
            return .wait(waiter)
        }
    }

    /// Opens a connection for a slot already counted in `open`; the slot is given back when it closes.
    private func connect(on eventLoop: any EventLoop) -> EventLoopFuture<UpstreamConnection> {
        ClientBootstrap(group: eventLoop)
            .connectTimeout(.seconds(2))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Heads come without `host` (it is hop-by-hop to the gateway): the handler
                    // writes this one. Their names and values were checked already (parsed from a
                    // client, or the gateway's own).
                    try channel.pipeline.syncOperations.addHandler(UpstreamConnectionHandler(host: self.authority))
                }
            }
            .connect(host: host, port: port)
            .flatMapThrowing { channel in
                let handler = try channel.pipeline.syncOperations.handler(type: UpstreamConnectionHandler.self)
                let connection = UpstreamConnection(channel: channel, handler: handler)
                // The cycle (connection → handler → this closure) ends when the channel closes.
                handler.onReusable = { [weak self] in self?.release(connection) }
                channel.closeFuture.whenComplete { [weak self] _ in self?.closed(connection) }
                return connection
            }
            .flatMapErrorThrowing { error in
                self.slotFreed()
                throw UpstreamError.unreachable(String(describing: error))
            }
    }

    private enum Released {
        case handedTo(Waiter)
        case idle
        case close
    }

    private func release(_ connection: UpstreamConnection) {
        let released: Released = state.withLockedValue { state in
            if state.shutDown { return .close }
            if let waiter = state.waiters.popFirst() { return .handedTo(waiter) }
            state.idle.append(connection)
            return .idle
        }
        switch released {
        case .handedTo(let waiter): waiter.succeed(connection)
        case .idle: break
        case .close: connection.channel.close(promise: nil)
        }
    }

    private func closed(_ connection: UpstreamConnection) {
        state.withLockedValue { state in
            state.idle.removeAll { $0 === connection }
        }
        slotFreed()
    }

    /// A connection closed or failed to open: a waiter may open one in its place.
    private func slotFreed() {
        let waiter: Waiter? = state.withLockedValue { state in
            if let waiter = state.waiters.popFirst() { return waiter }
            state.open -= 1
            return nil
        }
        waiter?.succeed(nil)
    }
}

/// A pooled connection and its handler (reached on the channel's event loop).
final class UpstreamConnection: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<UpstreamConnectionHandler>

    init(channel: any Channel, handler: UpstreamConnectionHandler) {
        self.channel = channel
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    }

    /// A streamed body is pumped by a task of its own; the answer may come before it ends.
    func send(_ request: UpstreamRequest, timeout: TimeAmount) -> EventLoopFuture<UpstreamResponse> {
        let promise = channel.eventLoop.makePromise(of: UpstreamResponse.self)
        if channel.eventLoop.inEventLoop {
            handler.value.send(request, timeout: timeout, promise: promise)
        } else {
            channel.eventLoop.execute { [handler] in handler.value.send(request, timeout: timeout, promise: promise) }
        }
        if case .stream(let body) = request.body {
            let channel = channel
            Task {
                do {
                    for try await part in body {
                        try await channel.writeAndFlush(UpstreamBodyPart.part(part))
                    }
                    try await channel.writeAndFlush(UpstreamBodyPart.end)
                } catch {
                    // Too large, the client went away, or the service answered and closed before
                    // taking the whole body (its answer, if any, stands).
                    channel.close(promise: nil)
                }
            }
        }
        return promise.futureResult
    }
}

extension UpstreamRequest {
    /// Safe to send again: in hand and idempotent (RFC 9110 §9.2.2).
    var isRetryable: Bool {
        if case .stream = body { return false }
        switch head.method {
        case .GET, .HEAD, .OPTIONS, .PUT, .DELETE: return true
        default: return false
        }
    }
}
