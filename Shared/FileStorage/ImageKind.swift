import ServiceKit

/// Image formats accepted for uploads, decided by the file's first bytes (API.md §0), never by
/// the client's filename or part type.
package enum ImageKind: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, heic

    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        case .heic: "heic"
        }
    }

    package var contentType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }

    private static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]

    package static func detect(_ bytes: some Collection<UInt8>) -> ImageKind? {
        let head = Array(bytes.prefix(16))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12, heifBrands.contains(String(decoding: head[8..<12], as: UTF8.self)) {
            return .heic
        }
        return nil
    }

    /// The kind a stored file's name stands for (our names end in our extensions).
    package static func forFileName(_ name: some StringProtocol) -> ImageKind? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let ext = name[name.index(after: dot)...]
        return allCases.first { $0.fileExtension == ext }
    }
}
