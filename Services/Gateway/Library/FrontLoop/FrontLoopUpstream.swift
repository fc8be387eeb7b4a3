import Glibc
import NIOCore
import NIOHTTP1

/// Who waits for an answer on a front loop's service connection (the client connection it
/// serves). Called on the loop's thread.
protocol FrontLoopAnswerTaker: AnyObject {
    /// A whole answer (known length up to `UpstreamResponse.bufferedLimit`), or a failure before any of a streamed one.
    func answered(_ result: Result<UpstreamResponse, any Error>)
    func streamStarted(_ head: UpstreamHead)
    /// A streamed body's part; false when the client is slower: reading waits for `resumeReading`.
    func streamPart(_ part: ByteBuffer) -> Bool
    /// The streamed body's end, or the connection's failure in the middle of it.
    func streamEnded(_ failure: (any Error)?)
}

/// One keep-alive HTTP/1 connection to a service on a front loop, one request at a time: the
/// request's head written as `UpstreamConnectionHandler` writes it, the answer read by the same
/// `UpstreamAnswerReader`, small answers collected and handed over whole, larger ones passed on
/// part by part with back-pressure.
final class FrontLoopUpstream: FrontLoopSocket {
    private enum State {
        case idle
        case awaitingHead
        case buffering(UpstreamHead, ByteBuffer?)
        case streaming
        case closed
    }

    private let loop: FrontLoop
    private unowned let pool: FrontLoopUpstreamPool
    private var io: FrontLoopDescriptor
    private var reader = UpstreamAnswerReader()
    private var state = State.idle
    private var taker: (any FrontLoopAnswerTaker)?
    private var keepAlive = true
    /// Whether any byte of the current answer has arrived (before that, a reused connection's failure may be retried).
    private(set) var answered = false
    private var due: ContinuousClock.Instant?
    private var timeout = Duration.seconds(60)
    private var paused = false
    /// Reused for every read and request head: once what was made of the last one (the answer's
    /// slices, the written head) is let go, the storage is this connection's alone again.
    private var inbound = ByteBuffer()
    private var outbound = ByteBuffer()

    init(descriptor: Int32, loop: FrontLoop, pool: FrontLoopUpstreamPool) {
        self.io = FrontLoopDescriptor(descriptor)
        self.loop = loop
        self.pool = pool
        loop.watch(descriptor, self)
    }

    var isIdle: Bool {
        if case .idle = state { return true }
        return false
    }

    func send(_ request: UpstreamRequest, host: String, timeout: Duration, to taker: any FrontLoopAnswerTaker) {
        guard case .idle = state else { return taker.answered(.failure(UpstreamError.closedBeforeAnswer)) }
        state = .awaitingHead
        self.taker = taker
        self.timeout = timeout
        // The answer decides: a request never asks to close (`connection` stays at the gateway).
        keepAlive = true
        answered = false
        due = loop.now + timeout
        reader.expect(answerTo: request.head.method)
        outbound.clear()
        _ = request.writeHead(host: host, to: &outbound)
        let body: ByteBuffer? = if case .bytes(let bytes) = request.body { bytes } else { nil }
        if !io.write(outbound, body) { return fail(UpstreamError.closedBeforeAnswer) }
        if !io.isFlushed { loop.interest(io.descriptor, read: true, write: true) }
    }

    func readable() {
        inbound.clear()
        switch io.read(into: &inbound) {
        case .wouldBlock:
            return
        case .closed:
            // An answer without length or chunks ends here.
            if let end = reader.closed() { handle(end) }
            fail(answered ? UpstreamError.connectionClosed : UpstreamError.closedBeforeAnswer)
        case .read:
            answered = true
            reader.read(inbound)
            do {
                while case .some(let event) = try reader.next() {
                    handle(event)
                    if case .closed = state { return }
                }
            } catch {
                // Not an answer, or one nobody asked for: out of step, not to be reused.
                fail(error)
            }
        }
    }

    func writable() {
        if !io.flush() { return fail(answered ? UpstreamError.connectionClosed : UpstreamError.closedBeforeAnswer) }
        if io.isFlushed { loop.interest(io.descriptor, read: !paused, write: false) }
    }

    func sweep(now: ContinuousClock.Instant) {
        if let due, due <= now { fail(UpstreamError.timedOut) }
    }

    /// Idle service connections close with the loop, which closes them last.
    func quiesce() {}

    /// The client wants more of a streamed body.
    func resumeReading() {
        guard paused else { return }
        paused = false
        due = loop.now + timeout
        loop.interest(io.descriptor, read: true, write: !io.isFlushed)
    }

    /// The client went away: an answer under way would arrive on this connection, so it closes.
    func abandon() {
        taker = nil
        if !isIdle { close() }
    }

    func close() {
        guard !isClosed else { return }
        state = .closed
        due = nil
        loop.forget(io.descriptor)
        Glibc.close(io.descriptor)
        pool.closed(self)
    }

    private var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    private func handle(_ event: UpstreamAnswerReader.Event) {
        switch (event, state) {
        case (.head(let head), .awaitingHead):
            keepAlive = keepAlive && head.keepAlive
            switch head.body {
            case .none:
                state = .buffering(head, nil)
            case .length(let length) where length <= UpstreamResponse.bufferedLimit:
                state = .buffering(head, nil)
            default:
                state = .streaming
                due = loop.now + timeout
                taker?.streamStarted(head)
            }
        case (.body(var part), .buffering(let head, var buffer)):
            state = .idle  // lets `buffer` be appended to in place
            if buffer == nil {
                buffer = part
            } else {
                buffer!.writeBuffer(&part)
            }
            state = .buffering(head, buffer)
        case (.body(let part), .streaming):
            if taker?.streamPart(part) == false {
                // The client is slower: the service is not late while we do not read.
                paused = true
                due = nil
                loop.interest(io.descriptor, read: false, write: !io.isFlushed)
            } else {
                due = loop.now + timeout
            }
        case (.end, .buffering(let head, let buffer)):
            let taker = finish()
            taker?.answered(.success(UpstreamResponse(head: head, body: .buffered(buffer ?? ByteBufferAllocator().buffer(capacity: 0)))))
        case (.end, .streaming):
            finish()?.streamEnded(nil)
        default:
            fail(UpstreamAnswerReader.Failure.unexpected)
        }
    }

    /// The answer ended: the connection goes back to its pool, or closes when it cannot be reused.
    private func finish() -> (any FrontLoopAnswerTaker)? {
        let taker = self.taker
        self.taker = nil
        due = nil
        paused = false
        state = .idle
        if keepAlive, io.isFlushed {
            loop.interest(io.descriptor, read: true, write: false)
            pool.release(self)
        } else {
            close()
        }
        return taker
    }

    private func fail(_ error: any Error) {
        let taker = self.taker
        self.taker = nil
        let streaming: Bool
        if case .streaming = state { streaming = true } else { streaming = false }
        close()
        if streaming {
            taker?.streamEnded(error)
        } else {
            taker?.answered(.failure(error))
        }
    }
}
