import CZlib
import Foundation

/// Inflates gzip data with the system zlib (the boundary file ships gzipped).
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func decompress(_ data: Data, limit: Int = 256 << 20) throws -> Data {
        var stream = z_stream()
        // 16 + MAX_WBITS: expect a gzip header.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
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
                    status = inflate(&stream, Z_NO_FLUSH)
                    return buffer.count - Int(stream.avail_out)
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return Z_BUF_ERROR }
            } while status == Z_OK
            return status
        }
        guard status == Z_STREAM_END else { throw Failure(description: "not a complete gzip stream (zlib status \(status))") }
        return output
    }
}
