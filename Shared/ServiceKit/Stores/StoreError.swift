/// What a store fails with besides its engine's own errors, with nothing of HTTP in it: the
/// stores of every service (and of every engine) throw these, and `ServiceError(_:)` maps them to
/// canonical errors in one place.
package enum StoreError: Error, Equatable, Sendable {
    /// What was asked for does not exist (or not where the caller may see it).
    case notFound(String)
    /// The write would break a rule of the data: a duplicate, a filter already sold.
    case conflict(String)
    /// It exists but is not the caller's to change.
    case notPermitted(String)
    /// The caller's own account no longer exists.
    case callerGone(String)
}
