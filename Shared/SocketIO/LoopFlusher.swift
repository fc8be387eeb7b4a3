import NIOCore
import Synchronization

/// Coalesces flushes on one event loop: a socket written to is flushed once, after everything
/// already queued on the loop has run, so frames that reach a socket within one tick (several
/// broadcasts, a broadcast and a ping) leave in one `writev` instead of one system call each.
final class LoopFlusher: @unchecked Sendable {
    // @unchecked: everything but `eventLoop` is touched on `eventLoop` only.
    let eventLoop: any EventLoop
    private var dirty: [EngineSocketHandler] = []
    private var spare: [EngineSocketHandler] = []
    private var scheduled = false

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// `socket` has frames written since its last flush.
    func needsFlush(_ socket: EngineSocketHandler) {
        eventLoop.preconditionInEventLoop()
        dirty.append(socket)
        guard !scheduled else { return }
        scheduled = true
        eventLoop.execute { self.flushAll() }
    }

    private func flushAll() {
        scheduled = false
        swap(&dirty, &spare)
        for socket in spare { socket.flushNow() }
        spare.removeAll(keepingCapacity: true)
    }
}

/// One flusher per event loop, made when a loop's first socket opens.
final class LoopFlushers: Sendable {
    private let flushers = Mutex<[ObjectIdentifier: LoopFlusher]>([:])

    func flusher(for eventLoop: any EventLoop) -> LoopFlusher {
        flushers.withLock { flushers in
            if let flusher = flushers[ObjectIdentifier(eventLoop)] { return flusher }
            let flusher = LoopFlusher(eventLoop: eventLoop)
            flushers[ObjectIdentifier(eventLoop)] = flusher
            return flusher
        }
    }
}
