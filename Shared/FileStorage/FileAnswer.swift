import HTTPTypes

/// The headers every file answer carries, whichever store it comes from: its type, its
/// validator, byte ranges accepted, and a long cache lifetime (names are never reused, so a
/// file never changes).
enum FileAnswer {
    static func headers(kind: ImageKind, etag: String?) -> HTTPFields {
        var headers: HTTPFields = [
            .contentType: kind.contentType, .acceptRanges: "bytes", .cacheControl: "public, max-age=31536000, immutable",
        ]
        if let etag { headers[.eTag] = etag }
        return headers
    }
}
