/// Operators (admin-svc's own accounts).
protocol OperatorStore: Sendable {
    /// `conflict` when the email is taken.
    func insert(_ record: OperatorRecord) async throws
    func find(email: String) async throws -> OperatorRecord?
    func find(id: String) async throws -> OperatorRecord?
    /// Takes a TOTP step as used, once: false when it (or a later one) already was.
    func accept(step: Int64, for operatorID: String) async throws -> Bool
}
