import NIOCore
import NIOPosix

/// The event loop a caller waits on, so that its continuation, resumed by another thread (one that
/// answers many callers, as `WriteBatcher`'s batch does), continues on it. Resumed in place,
/// `EventLoopGlobalExecutor` puts the waiting task on the resuming loop, or on any loop from a
/// thread that is none: a request's answer then crosses to its connection's loop, a second thread
/// woken (refreshes ran 5–9% faster once their rotations came back to their own loop,
/// Benchmarks/README). Off the loops (tests, Swift's own pool) the continuation resumes in place.
public struct CallingLoop: Sendable {
    @usableFromInline let loop: (any EventLoop)?

    /// The loop of the calling thread, if it is one.
    @inlinable package init() {
        loop = MultiThreadedEventLoopGroup.currentEventLoop
    }

    @inlinable package func resume<Value: Sendable>(_ continuation: CheckedContinuation<Value, any Error>, with result: Result<Value, any Error>) {
        guard let loop, !loop.inEventLoop else { return continuation.resume(with: result) }
        loop.execute { continuation.resume(with: result) }
    }
}
