import NIOCore
import Synchronization

/// Passes a request body through while counting; past `limit` bytes it throws, so a body without
/// (or lying about) Content-Length still cannot exceed the limit. Its `Gate` tells the caller
/// that the failure was ours (413), not the upstream's, and closes the body to its reader.
struct LimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    struct TooLarge: Error {}
    /// Read after the gateway closed the body: its answer is already on the way.
    struct Closed: Error {}

    /// What the reader (the upstream pump) and the request's handler share. A service may answer
    /// an upload before reading all of it; Hummingbird then reads the rest itself once the answer
    /// is written, and the pump must not be reading at that moment: NIO allows one reader of a
    /// request's stream, and a second stops the process.
    final class Gate: Sendable {
        private struct State {
            var tripped = false
            var reading = false
            var closed = false
            var waiter: CheckedContinuation<Void, Never>?
        }
        private let state = Mutex(State())

        var tripped: Bool { state.withLock { $0.tripped } }

        fileprivate func trip() { state.withLock { $0.tripped = true } }

        /// False once closed: the reader must stop.
        fileprivate func beginRead() -> Bool {
            state.withLock { state in
                guard !state.closed else { return false }
                state.reading = true
                return true
            }
        }

        fileprivate func endRead() {
            let waiter = state.withLock { state in
                state.reading = false
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        /// No read starts after this; returns once a read under way has returned.
        func close() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    state.closed = true
                    guard state.reading else { return true }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    let base: Base
    let limit: Int
    let gate: Gate

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let gate: Gate
        var seen = 0

        mutating func next() async throws -> ByteBuffer? {
            guard gate.beginRead() else { throw Closed() }
            let next: ByteBuffer?
            do {
                next = try await base.next()
                gate.endRead()
            } catch {
                gate.endRead()
                throw error
            }
            guard let buffer = next else { return nil }
            seen += buffer.readableBytes
            if seen > limit {
                gate.trip()
                throw TooLarge()
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, gate: gate)
    }
}
