import NIOCore
import Synchronization

/// Passes a request body through while counting; past `limit` bytes it throws, so a body without
/// (or lying about) Content-Length still cannot exceed the limit. `tripped` tells the caller
/// that the failure was ours (413), not the upstream's.
struct LimitedBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    struct TooLarge: Error {}

    final class Trip: Sendable {
        private let state = Mutex(false)
        var tripped: Bool { state.withLock { $0 } }
        func trip() { state.withLock { $0 = true } }
    }

    let base: Base
    let limit: Int
    let trip: Trip

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let trip: Trip
        var seen = 0

        mutating func next() async throws -> ByteBuffer? {
            guard let buffer = try await base.next() else { return nil }
            seen += buffer.readableBytes
            if seen > limit {
                trip.trip()
                throw TooLarge()
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, trip: trip)
    }
}
