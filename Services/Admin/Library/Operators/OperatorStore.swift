/// Operators (admin-svc's own accounts).
protocol OperatorStore: Sendable {
    /// `conflict` when the email is taken.
    func insert(_ record: OperatorRecord) async throws
    func find(email: String) async throws -> OperatorRecord?
    func find(id: String) async throws -> OperatorRecord?
    /// Takes a TOTP step as used, once: false when it (or a later one) already was.
    func accept(step: Int64, for operatorID: String) async throws -> Bool
    /// Every operator, by email.
    func all() async throws -> [OperatorRecord]
    /// Writes the role, apps and TOTP secret (a reset starts its steps over); false when gone.
    func update(_ record: OperatorRecord) async throws -> Bool
    /// Writes a new password hash chosen by the operator; false when gone.
    func setPassword(hash: String, at time: Int64, for operatorID: String) async throws -> Bool
    /// Removes the operator (its sessions go with it); false when there was none.
    func delete(id: String) async throws -> Bool
}
