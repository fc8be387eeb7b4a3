/// Counts the committed transactions that changed some tables, for caches of what those tables
/// hold (`ChangeBoundCache`): on SQLite from the file's one writer (`TableChangeCounter`), on
/// PostgreSQL from the database's notifications (`PostgresChangeCounter`).
///
/// The count moves after a commit, never before it: a reader that read the count and then the
/// tables has data at least as new as that count.
///
/// Public because `ChangeBoundCache`'s inlinable members use it (see `ExpiringCache`).
public protocol CommitCounter: AnyObject, Sendable {
    var count: UInt64 { get }
}
