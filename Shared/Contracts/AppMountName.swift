/// An app's mount: the first path segment that names it instead of a key (API.md §9).
package enum AppMountName {
    /// First segments the gateway serves for every app: a mount may not shadow them.
    package static let reserved: Set<Substring> = ["v1", "socket.io", "event-application", "health", "metrics", "openapi", "docs", "internal"]

    /// 1–32 lowercase letters, digits or `-`, not reserved.
    package static func isValid(_ name: some StringProtocol) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
            && !reserved.contains(Substring(name))
    }
}
