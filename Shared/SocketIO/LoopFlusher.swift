import NIOCore
import Synchronization

/// Coalesces flushes on one event loop: a socket written to is flushed once, after everything
/// already queued on the loop has run, so frames that reach a socket within one tick (several
/// broadcasts, a broadcast and a ping) leave in one `writev` instead of one system call each.
/// With a `window`, flushes under steady traffic are also spaced at least that far apart: a
/// flush right after a quiet spell leaves at once, but while messages keep coming each socket
/// gets what piled up in the window in one write (a few milliseconds of latency for a fraction
/// of the system calls, which are most of a delivery's cost).
final class LoopFlusher: @unchecked Sendable {
    // @unchecked: everything but `eventLoop` and `window` is touched on `eventLoop` only.
    let eventLoop: any EventLoop
    private let window: TimeAmount
    private var dirty: [EngineSocketHandler] = []
    private var spare: [EngineSocketHandler] = []
    private var scheduled = false
    private var lastFlush: NIODeadline?
    /// The frames broadcast on this loop since its last flush, each once, whoever they are for;
    /// sockets write slices of it (`EngineSocketHandler.broadcast`).
    private var broadcasts = ByteBuffer()

    init(eventLoop: any EventLoop, window: TimeAmount = .zero) {
        self.eventLoop = eventLoop
        self.window = window
    }

    /// `socket` has frames written since its last flush.
    func needsFlush(_ socket: EngineSocketHandler) {
        eventLoop.preconditionInEventLoop()
        dirty.append(socket)
        guard !scheduled else { return }
        scheduled = true
        if let lastFlush, window > .zero, lastFlush + window > eventLoop.now {
            eventLoop.scheduleTask(deadline: lastFlush + window) { self.flushAll() }
        } else {
            eventLoop.execute { self.flushAll() }
        }
    }

    /// Adds a broadcast frame to this tick's broadcast bytes: where it lies there.
    func append(_ frame: ByteBuffer) -> Range<Int> {
        eventLoop.preconditionInEventLoop()
        let start = broadcasts.writerIndex
        var frame = frame
        broadcasts.writeBuffer(&frame)
        return start..<broadcasts.writerIndex
    }

    /// These bytes of this tick's broadcast bytes, sharing their storage.
    func broadcastBytes(_ range: Range<Int>) -> ByteBuffer {
        broadcasts.getSlice(at: range.lowerBound, length: range.count)!
    }

    private func flushAll() {
        scheduled = false
        lastFlush = eventLoop.now
        swap(&dirty, &spare)
        for socket in spare { socket.flushNow() }
        spare.removeAll(keepingCapacity: true)
        // Every socket with broadcast bytes was dirty and has written them: the next tick starts
        // empty (the storage is reused when NIO has sent it all, else left to the slices).
        broadcasts.clear()
    }
}

/// One flusher per event loop, made when a loop's first socket opens.
final class LoopFlushers: Sendable {
    private let window: TimeAmount
    private let flushers = Mutex<[ObjectIdentifier: LoopFlusher]>([:])

    init(window: TimeAmount) {
        self.window = window
    }

    func flusher(for eventLoop: any EventLoop) -> LoopFlusher {
        flushers.withLock { flushers in
            if let flusher = flushers[ObjectIdentifier(eventLoop)] { return flusher }
            let flusher = LoopFlusher(eventLoop: eventLoop, window: window)
            flushers[ObjectIdentifier(eventLoop)] = flusher
            return flusher
        }
    }
}
