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
        var stream = z_stream()
        // 16 + MAX_WBITS: expect a gzip header.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        let (output, status) = run(&stream, over: data, limit: limit) { inflate(&$0, Z_NO_FLUSH) }
        guard status == Z_STREAM_END else { throw Failure(description: "not a complete gzip stream (zlib status \(status))") }
        return output
    }

    /// `data` as one gzip stream, at zlib's fastest level: most of the size for little time.
    package static func compress(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw Failure(description: "zlib could not start") }
        defer { deflateEnd(&stream) }
        let (output, status) = run(&stream, over: data, limit: .max) { deflate(&$0, Z_FINISH) }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib could not finish (status \(status))") }
        return output
    }

    /// Feeds `data` through a started stream a megabyte of output at a time until `step` stops
    /// answering `Z_OK` (or the output passes `limit`); the output and the last status.
    private static func run(
        _ stream: inout z_stream, over data: Data, limit: Int, _ step: (inout z_stream) -> Int32
    ) -> (Data, Int32) {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var input = data
        let status: Int32 = input.withUnsafeMutableBytes { (source: UnsafeMutableRawBufferPointer) -> Int32 in
            stream.next_in = source.bindMemory(to: Bytef.self).baseAddress
            stream.avail_in = uInt(source.count)
            var status = Z_OK
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    status = step(&stream)
                    return buffer.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return Z_BUF_ERROR }
            } while status == Z_OK
            return status
        }
        return (output, status)
    }
}
