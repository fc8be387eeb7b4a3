import Foundation

/// `ADMIN_ALLOWED_NETWORKS`: the networks operators may reach the admin API from (IPv4 and IPv6
/// CIDR blocks); `any` when none is configured.
struct NetworkAllowList: Sendable, Equatable {
    private struct Block: Sendable, Equatable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (own, other) in zip(bytes, address) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if own & mask != other & mask { return false }
                left -= bits
            }
            return true
        }
    }

    private var blocks: [Block]

    static let any = NetworkAllowList(blocks: [])

    private init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// Parses `a.b.c.d/n, x:y::/n, …` (a bare address is a /32 or /128); nil when any is invalid.
    init?(_ text: String) {
        var blocks: [Block] = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: "/", maxSplits: 1)
            guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else { return nil }
            blocks.append(Block(bytes: bytes, prefix: prefix))
        }
        self.blocks = blocks
    }

    /// Whether `address` (as the gateway reports the client's) may use the admin API.
    func allows(_ address: String) -> Bool {
        guard !blocks.isEmpty else { return true }
        guard let bytes = Self.bytes(of: address) else { return false }
        return blocks.contains { $0.contains(bytes) }
    }

    private static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
