/// The last backup run on this machine, scheduled or by hand (`DATA_DIR/backup-status.json`):
/// admin-svc reports it in its `/health` (and so the gateway's), its `/metrics` and the console.
package struct BackupHealth: Codable, Sendable, Equatable {
    /// `ok` or `failed`: how the last run ended.
    package var status: String
    /// Milliseconds, when the last run ended.
    package var lastRunAt: Int64
    /// The last snapshot taken, and when its run ended.
    package var lastSnapshot: String?
    package var lastSuccessAt: Int64?
    /// Why the last run failed.
    package var error: String?

    package init(status: String, lastRunAt: Int64, lastSnapshot: String? = nil, lastSuccessAt: Int64? = nil, error: String? = nil) {
        (self.status, self.lastRunAt, self.lastSnapshot, self.lastSuccessAt, self.error) = (status, lastRunAt, lastSnapshot, lastSuccessAt, error)
    }
}
