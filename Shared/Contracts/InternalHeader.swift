/// Header names that only travel between our processes. The gateway strips every `x-internal-*`
/// header a client sends, so a service may trust them once the secret matches.
@usableFromInline package enum InternalHeader {
    package static let secret = "x-internal-secret"
    package static let appID = "x-internal-app-id"
    /// The app's profile (`lslp`, `slp`): which family of answer shapes it speaks.
    package static let appProfile = "x-internal-app-profile"
    package static let clientIP = "x-internal-client-ip"
    /// Where a mounted app's clients reach it (`https://host/quotehub`): services make the
    /// absolute file URLs API.md §9 answers from it.
    package static let publicBase = "x-internal-public-base"
    package static let prefix = "x-internal-"
    /// Usable from inlinable code: the byte fronts' header reading (`DirectHeaderFacts`) is.
    @usableFromInline package static let requestID = "x-request-id"
}
