import CZlib
import Foundation

/// gzip with the system zlib: geo-svc's boundary file ships gzipped, and snapshots are written
/// compressed (their stores shrink about fivefold, and the disk writes are what a running
/// suite feels of a snapshot).
package enum Gzip {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Whether `data` starts as a gzip stream does.
    package static func isCompressed(_ data: Data) -> Bool { data.starts(with: [0x1f, 0x8b]) }

    package static func decompress(_ data: Data, limit: Int = 256 << 20) throws -> Data {
        let (output, status) = try inflating(data) { output in output.count > limit ? Z_BUF_ERROR : nil }
        guard status == Z_STREAM_END else { throw Failure(description: "not a complete gzip stream (zlib status \(status))") }
        return output
    }

    /// The first `count` bytes `data` holds uncompressed (fewer when it holds fewer), without
    /// inflating the rest: an archive's first entry out of a large archive.
    package static func decompressPrefix(_ data: Data, count: Int) throws -> Data {
        let (output, status) = try inflating(data, chunk: min(count, 1 << 20)) { output in output.count >= count ? Z_STREAM_END : nil }
        guard status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw Failure(description: "not a gzip stream (zlib status \(status))")
        }
        return output.prefix(count)
    }

    /// `data` as one gzip stream, at zlib's fastest level: most of the size for little time.
    package static func compress(_ data: Data) throws -> Data {
        let deflater = try Deflater()
        try deflater.add(data)
        return try deflater.finish()
    }

    /// One gzip stream written from pieces given one after another, none of them joined first
    /// (an archive's headers and its stores' copies go in as they are), at zlib's fastest level.
    package final class Deflater {
        private var stream = z_stream()
        private var output = Data()
        private var chunk = [UInt8](repeating: 0, count: 1 << 20)

        package init() throws {
            let started = deflateInit2_(
                &stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            guard started == Z_OK else { throw Failure(description: "zlib could not start") }
        }

        deinit { deflateEnd(&stream) }

        package func add(_ bytes: Data) throws {
            let status = run(bytes, Z_NO_FLUSH)
            // Z_BUF_ERROR: nothing to do for no bytes, not a failure.
            guard status == Z_OK || status == Z_BUF_ERROR else { throw Failure(description: "zlib could not compress (status \(status))") }
        }

        /// The whole stream, ended.
        package func finish() throws -> Data {
            let status = run(Data(), Z_FINISH)
            guard status == Z_STREAM_END else { throw Failure(description: "zlib could not finish (status \(status))") }
            return output
        }

        private func run(_ bytes: Data, _ flush: Int32) -> Int32 {
            bytes.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int32 in
                // zlib's input pointer is not const; deflate only reads through it.
                stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(source.count)
                var status = Z_OK
                repeat {
                    status = Gzip.drain(&stream, into: &output, chunk: &chunk) { deflate(&$0, flush) }
                } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0 || flush == Z_FINISH)
                return status
            }
        }
    }

    /// Inflates `data` a chunk of output at a time until the stream ends or `stop` answers a status.
    private static func inflating(_ data: Data, chunk size: Int = 1 << 20, stop: (Data) -> Int32?) throws -> (Data, Int32) {
        var stream = z_stream()
        // 16 + MAX_WBITS: expect a gzip header.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: max(size, 1))
        let status = data.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(source.count)
            var status = Z_OK
            repeat {
                status = drain(&stream, into: &output, chunk: &chunk) { inflate(&$0, Z_NO_FLUSH) }
                if let stopped = stop(output) { return stopped }
            } while status == Z_OK
            return status
        }
        return (output, status)
    }

    /// One step of `step` into `chunk`, what it produced appended to `output`; its status.
    private static func drain(_ stream: inout z_stream, into output: inout Data, chunk: inout [UInt8], _ step: (inout z_stream) -> Int32) -> Int32 {
        chunk.withUnsafeMutableBufferPointer { buffer in
            stream.next_out = buffer.baseAddress
            stream.avail_out = uInt(buffer.count)
            let status = step(&stream)
            output.append(buffer.baseAddress!, count: buffer.count - Int(stream.avail_out))
            return status
        }
    }
}
