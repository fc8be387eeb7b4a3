/// Two shapes answered as one JSON object, their keys side by side: API.md's answers that are a
/// shape plus a few keys (Me and AuthOut of §8, a workspace with its channels and members, …).
package struct Merged<Base: Codable & Sendable & Equatable, Extra: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var base: Base
    package var extra: Extra

    package init(_ base: Base, _ extra: Extra) {
        (self.base, self.extra) = (base, extra)
    }

    package init(from decoder: any Decoder) throws {
        base = try Base(from: decoder)
        extra = try Extra(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
        try extra.encode(to: encoder)
    }
}
