import Contracts

/// The operator behind a request's session cookie, and what the audit log records of the request.
struct SignedInOperator: Sendable {
    var record: OperatorRecord
    var session: SessionRecord
    /// The client's address as the gateway saw it.
    var address: String
    var requestID: String
}
