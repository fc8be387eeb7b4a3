/// The audit log: appended to, read, never changed.
protocol AuditStore: Sendable {
    func append(_ record: AuditRecord) async throws
    func entries(_ query: AuditQuery) async throws -> [AuditRecord]
}
