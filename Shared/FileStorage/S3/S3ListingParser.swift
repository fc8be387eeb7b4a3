/// The few values read from S3's XML answers (ListObjectsV2's keys, sizes and next token; an
/// error's code): the tags are S3's fixed ones, so a scan for them is enough, entities decoded.
enum S3ListingParser {
    static func parse(_ xml: String) -> S3Client.Listing {
        let objects = blocks("Contents", in: xml).compactMap { block -> (key: String, size: Int)? in
            guard let key = value(of: "Key", in: block) else { return nil }
            return (key, Int(value(of: "Size", in: block) ?? "") ?? 0)
        }
        let truncated = value(of: "IsTruncated", in: xml) == "true"
        return S3Client.Listing(objects: objects, next: truncated ? value(of: "NextContinuationToken", in: xml) : nil)
    }

    /// The text of the first `<tag>…</tag>`, entities decoded.
    static func value(of tag: String, in xml: some StringProtocol) -> String? {
        blocks(tag, in: xml).first.map(decode)
    }

    private static func blocks(_ tag: String, in xml: some StringProtocol) -> [Substring] {
        var found: [Substring] = []
        var rest = Substring(xml)
        while let open = rest.range(of: "<\(tag)>"), let close = rest.range(of: "</\(tag)>", range: open.upperBound..<rest.endIndex) {
            found.append(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
        }
        return found
    }

    private static func decode(_ text: Substring) -> String {
        var decoded = String(text)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
            decoded = decoded.replacingOccurrences(of: entity, with: character)
        }
        return decoded
    }
}
