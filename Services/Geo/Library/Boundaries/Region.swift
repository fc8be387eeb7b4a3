import Contracts

/// A legal (법정) 읍·면·동 with the names above it, as the boundary file gives them.
struct Region: Sendable, Equatable {
    /// The 8-digit legal code (sido 2 + sigungu 3 + 읍면동 3).
    var code: String
    var sido: String
    var sigungu: String
    var dong: String
}
