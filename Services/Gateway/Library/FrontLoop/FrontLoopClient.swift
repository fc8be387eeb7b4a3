import Glibc
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// A client's connection on a front loop, taken from NIO by `ByteFrontHandler` at its first
/// plain request: the same requests as that handler answers (a head in the plain form, a small
/// body of known length, a route the policy admits at once to a service the loop has a pool
/// for), read from the socket and forwarded over the loop's own connection to the service, the
/// answer written back through the same policy (`DirectForward`). At the first request that is
/// anything else, the connection goes back to NIO (`FrontLoops.handBack`) with that request's
/// bytes, once what was answered before is written. One request at a time; a pipelining
/// client's next request waits in `input`.
final class FrontLoopClient: FrontLoopSocket, FrontLoopAnswerTaker {
    private enum State {
        case idle
        /// Of `current`'s request.
        case readingBody
        case answering
        case streaming(BodyFraming, status: Int)
    }

    private struct Current {
        var forward: DirectForward
        var start: ContinuousClock.Instant
    }

    /// Output a streamed answer may have waiting for the client before the service is read further.
    static let streamedAhead = 256 << 10

    private let loop: FrontLoop
    private let loops: FrontLoops
    private var io: FrontLoopDescriptor
    private let remoteIP: String?
    private var input: ByteBuffer
    private var state = State.idle
    /// The request being read or answered (apart from `state`: kept in its cases, it was copied, retained and released at every turn).
    private var current: Current?
    private var upstream: FrontLoopUpstream?
    private var dates = HTTPDateCache()
    private var idleSince: ContinuousClock.Instant
    private var closesWhenIdle = false
    private var handingBack = false
    private var readingPaused = false
    private var closed = false
    /// The body of a request sent on a reused connection that may be sent twice: a failure before
    /// any answer sends it once more on a new connection (the service may have closed the idle
    /// connection just as it was taken).
    private var retry: ByteBuffer?
    /// Answer heads are written here, reused (see `FrontLoopUpstream.outbound`).
    private var headBytes = ByteBuffer()

    /// `first`: the request whose head `ByteFrontHandler` read and the policy admitted; `input`
    /// is what was read after that head.
    init(
        descriptor: Int32, input: ByteBuffer, first: (forward: DirectForward, start: ContinuousClock.Instant), remoteIP: String?, loop: FrontLoop,
        loops: FrontLoops
    ) {
        self.io = FrontLoopDescriptor(descriptor)
        self.input = input
        self.remoteIP = remoteIP
        self.loop = loop
        self.loops = loops
        self.idleSince = loop.now
        self.state = .readingBody
        self.current = Current(forward: first.forward, start: first.start)
        loop.watch(descriptor, self)
        take()
    }

    private var isIdle: Bool {
        if case .idle = state { return true }
        return false
    }

    func readable() {
        // Room for the read without growing: what was taken is dropped (the bodies sent are
        // slices of it, and are no longer held once their answer has come).
        if input.readableBytes == 0 {
            input.clear()
        } else if input.readerIndex >= FrontLoopDescriptor.readSize {
            input.discardReadBytes()
        }
        switch io.read(into: &input) {
        case .wouldBlock: return
        case .closed: close()
        case .read: take()
        }
    }

    func writable() {
        guard io.flush() else { return close() }
        guard io.isFlushed else { return }
        loop.interest(io.descriptor, read: !readingPaused, write: false)
        if case .streaming = state { upstream?.resumeReading() }
        if isIdle { afterAnswer() }
    }

    func sweep(now: ContinuousClock.Instant) {
        if isIdle, now - idleSince >= loops.idleTimeout { close() }
    }

    func quiesce() {
        closesWhenIdle = true
        if isIdle, io.isFlushed { close() }
    }

    /// Takes requests from what was read, as long as none is being answered.
    private func take() {
        while !closed, !handingBack {
            switch state {
            case .idle:
                guard input.readableBytes > 0 else { return }
                switch PlainRequestHead.scan(input) {
                case .incomplete:
                    return
                case .unusual:
                    return handBack()
                case .head(let head, let length):
                    guard let forward = DirectForward(head, remoteIP: remoteIP, policy: loops.policy, local: loop.local, now: loop.now),
                        loop.upstreams[forward.service] != nil
                    else { return handBack() }
                    input.moveReaderIndex(forwardBy: length)
                    state = .readingBody
                    current = Current(forward: forward, start: loop.now)
                }
            case .readingBody:
                guard let forward = current?.forward, input.readableBytes >= forward.bodyLength else { return }
                let body = input.readSlice(length: forward.bodyLength)!
                state = .answering
                send(forward, body: body)
            case .answering, .streaming:
                // A pipelining client is read ahead this far, then reading waits for the answer.
                if input.readableBytes >= FrontInput.maxAhead { pauseReading() }
                return
            }
        }
    }

    /// `attempts`: replicas still to try when one cannot be reached (the request was never sent).
    private func send(_ forward: DirectForward, body: ByteBuffer, fresh: Bool = false, attempts: Int? = nil) {
        guard let pools = loop.upstreams[forward.service] else { return answered(.failure(UpstreamError.closedBeforeAnswer)) }
        let turns = pools.count > 1 ? loops.turns(of: forward.service) : nil
        let replica = turns?.nextReplica() ?? 0
        let pool = pools[replica]
        let request = UpstreamRequest(head: forward.head, body: body.readableBytes > 0 ? .bytes(body) : .none)
        pool.acquire(fresh: fresh) { [self] connection, reused in
            guard let connection else {
                guard let turns, !closed else { return answered(.failure(UpstreamError.unreachable(pool.authority))) }
                turns.unreachable(replica)
                let left = (attempts ?? pools.count) - 1
                guard left > 0 else { return answered(.failure(UpstreamError.unreachable(pool.authority))) }
                return send(forward, body: body, attempts: left)
            }
            // A new connection is the replica's answer that it is up (a reused one says nothing new).
            if !reused { turns?.answered(replica) }
            guard !closed else { return connection.isIdle ? pool.release(connection) : connection.abandon() }
            upstream = connection
            retry = reused && request.isRetryable ? body : nil
            connection.send(request, host: pool.authority, timeout: loops.upstreamTimeout, to: self)
        }
    }

    func answered(_ result: Result<UpstreamResponse, any Error>) {
        upstream = nil
        guard !closed, case .answering = state, let forward = current?.forward else { return }
        if case .failure(UpstreamError.closedBeforeAnswer) = result, let body = retry {
            retry = nil
            return send(forward, body: body, fresh: true)
        }
        retry = nil
        headBytes.clear()
        let answer = forward.writeClientAnswer(result, policy: loops.policy, dates: &dates, to: &headBytes)
        guard case .whole(let body) = answer.body, io.write(headBytes, answer.framing == .length ? body : nil) else { return close() }
        finished(status: answer.status)
    }

    func streamStarted(_ head: UpstreamHead) {
        guard !closed, case .answering = state, let forward = current?.forward else { return }
        retry = nil
        headBytes.clear()
        let framing = forward.writeStreamedHead(head, policy: loops.policy, dates: &dates, to: &headBytes)
        state = .streaming(framing, status: Int(head.status.code))
        guard io.write(headBytes) else { return close() }
        watchWrites()
    }

    func streamPart(_ part: ByteBuffer) -> Bool {
        guard !closed, case .streaming(let framing, _) = state else { return true }
        guard io.write(framing.frame(part, allocator: ByteBufferAllocator())) else {
            close()
            return true
        }
        watchWrites()
        return io.pendingBytes < Self.streamedAhead
    }

    func streamEnded(_ failure: (any Error)?) {
        upstream = nil
        guard !closed, case .streaming(let framing, let status) = state else { return }
        // A body cut short cannot be told to the client but by closing.
        guard failure == nil, io.write(framing.frame(nil, allocator: ByteBufferAllocator())) else { return close() }
        finished(status: status)
    }

    private func finished(status: Int) {
        guard let current else { return }
        self.current = nil
        state = .idle
        idleSince = loop.now
        current.forward.ended(
            status: status, since: current.start, now: loop.now, metrics: loops.metrics, policy: loops.policy, accessLog: loops.accessLog)
        watchWrites()
        afterAnswer()
    }

    /// The next request, or what waited for the answer to be written (a hand-back, a close).
    private func afterAnswer() {
        guard io.isFlushed else { return }
        if closesWhenIdle { return close() }
        if readingPaused {
            readingPaused = false
            loop.interest(io.descriptor, read: true, write: false)
        }
        if handingBack {
            handingBack = false
            return handBack()
        }
        take()
    }

    private func watchWrites() {
        if !io.isFlushed { loop.interest(io.descriptor, read: !readingPaused, write: true) }
    }

    private func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        loops.readPauses.increment()
        loop.interest(io.descriptor, read: false, write: !io.isFlushed)
    }

    /// From the request at the start of `input` on, the connection is NIO's, once what was
    /// answered before is written.
    private func handBack() {
        guard io.isFlushed else {
            handingBack = true
            return
        }
        closed = true
        loop.forget(io.descriptor)
        loops.handBack(io.descriptor, input)
    }

    private func close() {
        guard !closed else { return }
        closed = true
        upstream?.abandon()
        upstream = nil
        loop.forget(io.descriptor)
        Glibc.close(io.descriptor)
    }
}
