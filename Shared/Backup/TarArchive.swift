import Foundation
import ZlibCoding

/// A POSIX ustar archive, as a snapshot's one file: entries written in order, read back whole (or
/// the first alone, the manifest).
/// Names are at most 100 bytes (`files/<area>/<name>` and `<service>.sqlite` are far shorter).
package enum TarArchive {
    package struct Entry: Sendable, Equatable {
        package var name: String
        package var bytes: Data

        package init(name: String, bytes: Data) {
            (self.name, self.bytes) = (name, bytes)
        }
    }

    package enum Failure: Error, CustomStringConvertible {
        case nameTooLong(String)
        case malformed(String)

        package var description: String {
            switch self {
            case .nameTooLong(let name): "name too long for the archive: \(name)"
            case .malformed(let why): "not a readable archive: \(why)"
            }
        }
    }

    package static func encode(_ entries: [Entry]) throws -> Data {
        var archive = Data()
        for piece in try pieces(entries) { archive.append(piece) }
        return archive
    }

    /// The archive in its pieces, in order: each header, the entry's bytes as they are (not
    /// copied), its padding, and the end. A writer that takes pieces one by one (`Gzip`) never
    /// needs the archive joined.
    package static func pieces(_ entries: [Entry]) throws -> [Data] {
        var pieces: [Data] = []
        for entry in entries {
            pieces.append(try header(name: entry.name, size: entry.bytes.count))
            pieces.append(entry.bytes)
            pieces.append(Data(count: (512 - entry.bytes.count % 512) % 512))
        }
        pieces.append(Data(count: 1024))
        return pieces
    }

    /// The archive gzipped, its pieces fed to zlib one by one at `pace`: a snapshot's or an
    /// export's file.
    package static func gzipped(_ entries: [Entry], pace: WorkPace = .unpaced) throws -> Data {
        let deflater = try Gzip.Deflater()
        try pace.each(try pieces(entries)) { try deflater.add($0) }
        return try deflater.finish()
    }

    /// The first entry of a gzipped archive, inflated only as far as that entry ends.
    package static func firstEntry(ofGzipped archive: Data) throws -> Entry {
        try firstEntry { try Gzip.decompressPrefix(archive, count: $0) }
    }

    package static func decode(_ archive: Data) throws -> [Entry] {
        var entries: [Entry] = []
        var offset = 0
        while offset + 512 <= archive.count {
            guard let (name, size) = try entry(at: offset, in: archive) else { return entries }
            guard offset + 512 + size <= archive.count else { throw Failure.malformed("\(name) is cut short") }
            entries.append(Entry(name: name, bytes: archive.subdata(in: offset + 512..<offset + 512 + size)))
            offset += 512 + (size + 511) / 512 * 512
        }
        throw Failure.malformed("no end")
    }

    /// The first entry, read from the archive's start alone: `prefix(count)` answers its first
    /// `count` bytes (a manifest without inflating the stores behind it).
    package static func firstEntry(_ prefix: (Int) throws -> Data) throws -> Entry {
        let head = try prefix(512)
        guard head.count == 512, let (name, size) = try entry(at: 0, in: head) else { throw Failure.malformed("no first entry") }
        let whole = try prefix(512 + size)
        guard whole.count >= 512 + size else { throw Failure.malformed("\(name) is cut short") }
        return Entry(name: name, bytes: whole.subdata(in: 512..<512 + size))
    }

    /// The name and size the header at `offset` gives; nil for the end's zero block.
    private static func entry(at offset: Int, in archive: Data) throws -> (String, Int)? {
        let header = archive.subdata(in: offset..<offset + 512)
        if header.allSatisfy({ $0 == 0 }) { return nil }
        guard checksum(of: header) == octal(header, 148, 8) else { throw Failure.malformed("a header's checksum is wrong") }
        let name = String(decoding: header.prefix(100).prefix { $0 != 0 }, as: UTF8.self)
        guard let size = octal(header, 124, 12) else { throw Failure.malformed("\(name) has no size") }
        return (name, size)
    }

    private static func header(name: String, size: Int) throws -> Data {
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= 100 else { throw Failure.nameTooLong(name) }
        var header = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int) { for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte } }
        for (index, byte) in nameBytes.enumerated() { header[index] = byte }
        put("0000644\0", at: 100)
        put("0000000\0", at: 108)
        put("0000000\0", at: 116)
        put(String(format: "%011o\0", size), at: 124)
        put(String(format: "%011o\0", 0), at: 136)
        put("        ", at: 148)
        header[156] = UInt8(ascii: "0")
        put("ustar\0", at: 257)
        put("00", at: 263)
        put(String(format: "%06o\0 ", checksum(of: Data(header))), at: 148)
        return Data(header)
    }

    private static func checksum(of header: Data) -> Int {
        header.enumerated().reduce(0) { sum, item in sum + ((148..<156).contains(item.offset) ? 32 : Int(item.element)) }
    }

    private static func octal(_ header: Data, _ offset: Int, _ length: Int) -> Int? {
        let text = String(decoding: header.subdata(in: offset..<offset + length).prefix { $0 != 0 && $0 != 32 }, as: UTF8.self)
        return Int(text, radix: 8)
    }
}
