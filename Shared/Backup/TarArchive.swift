import Foundation

/// A POSIX ustar archive, as a snapshot's one file: entries written in order, read back whole.
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
        for entry in entries {
            archive.append(try header(name: entry.name, size: entry.bytes.count))
            archive.append(entry.bytes)
            archive.append(Data(count: (512 - entry.bytes.count % 512) % 512))
        }
        archive.append(Data(count: 1024))
        return archive
    }

    package static func decode(_ archive: Data) throws -> [Entry] {
        var entries: [Entry] = []
        var offset = 0
        while offset + 512 <= archive.count {
            let header = archive.subdata(in: offset..<offset + 512)
            if header.allSatisfy({ $0 == 0 }) { return entries }
            guard checksum(of: header) == octal(header, 148, 8) else { throw Failure.malformed("a header's checksum is wrong") }
            let name = String(decoding: header.prefix(100).prefix { $0 != 0 }, as: UTF8.self)
            guard let size = octal(header, 124, 12), offset + 512 + size <= archive.count else { throw Failure.malformed("\(name) is cut short") }
            entries.append(Entry(name: name, bytes: archive.subdata(in: offset + 512..<offset + 512 + size)))
            offset += 512 + (size + 511) / 512 * 512
        }
        throw Failure.malformed("no end")
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
