import CEventPoll
import Glibc
import NIOCore

/// A nonblocking socket's reads and writes as a front loop's sockets make them: reads into a
/// `ByteBuffer`, writes gathered (`writev`), and what the kernel did not take kept, in order,
/// until the socket is writable again.
struct FrontLoopDescriptor {
    enum ReadResult {
        case read(Int)
        /// Nothing there now.
        case wouldBlock
        /// The peer closed, or the connection failed.
        case closed
    }

    static let readSize = 16 << 10

    let descriptor: Int32
    /// Bytes written but not yet taken by the kernel.
    private(set) var pending = CircularBuffer<ByteBuffer>()

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    var isFlushed: Bool { pending.isEmpty }

    var pendingBytes: Int { pending.reduce(0) { $0 + $1.readableBytes } }

    func read(into buffer: inout ByteBuffer) -> ReadResult {
        var failure: Int32 = 0
        let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.readSize) { bytes in
            let count = Glibc.read(descriptor, bytes.baseAddress, bytes.count)
            if count < 0 { failure = errno }
            return max(0, count)
        }
        if count > 0 { return .read(count) }
        return failure == EAGAIN || failure == EINTR ? .wouldBlock : .closed
    }

    /// Writes `first`, then `second`, after anything pending; false when the connection failed.
    mutating func write(_ first: ByteBuffer, _ second: ByteBuffer? = nil) -> Bool {
        // No empty buffer stands in for a missing `second`: `ByteBuffer()` is one storage shared
        // by the process, and taking it per write moved its reference count between the loops' cores.
        var (first, second) = (first, second?.readableBytes == 0 ? nil : second)
        guard pending.isEmpty else {
            if first.readableBytes > 0 { pending.append(first) }
            if let second { pending.append(second) }
            return flush()
        }
        // Most writes are taken whole at once: only what the kernel leaves waits in `pending`
        // (for `flush` when the socket is writable again).
        let written =
            if let second { Self.writev(descriptor, first, second) } else {
                first.withUnsafeReadableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
        if written < 0 {
            guard errno == EAGAIN || errno == EINTR else { return false }
        } else {
            let fromFirst = min(written, first.readableBytes)
            first.moveReaderIndex(forwardBy: fromFirst)
            second?.moveReaderIndex(forwardBy: written - fromFirst)
        }
        if first.readableBytes > 0 { pending.append(first) }
        if let second, second.readableBytes > 0 { pending.append(second) }
        return true
    }

    /// Writes what is pending; false when the connection failed.
    mutating func flush() -> Bool {
        while !pending.isEmpty {
            let written: Int
            if pending.count == 1 {
                written = pending[pending.startIndex].withUnsafeReadableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            } else {
                written = Self.writev(descriptor, pending[pending.startIndex], pending[pending.index(after: pending.startIndex)])
            }
            if written < 0 {
                if errno == EAGAIN || errno == EINTR { return true }
                return false
            }
            var left = written
            while left > 0, !pending.isEmpty {
                let size = pending[pending.startIndex].readableBytes
                if size <= left {
                    left -= size
                    pending.removeFirst()
                } else {
                    pending[pending.startIndex].moveReaderIndex(forwardBy: left)
                    left = 0
                }
            }
        }
        return true
    }

    private static func writev(_ descriptor: Int32, _ first: ByteBuffer, _ second: ByteBuffer) -> Int {
        first.withUnsafeReadableBytes { a in
            second.withUnsafeReadableBytes { b in
                withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
                    vectors[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: a.baseAddress), iov_len: a.count)
                    vectors[1] = iovec(iov_base: UnsafeMutableRawPointer(mutating: b.baseAddress), iov_len: b.count)
                    return Glibc.writev(descriptor, vectors.baseAddress, 2)
                }
            }
        }
    }
}
