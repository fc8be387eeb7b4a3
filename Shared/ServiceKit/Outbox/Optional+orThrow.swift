extension Optional {
    /// The value, or an error saying an outbox payload did not decode (a bug, not bad input).
    public func orThrow() throws -> Wrapped {
        guard let self else { throw ServiceError(.internalError, "undecodable outbox payload") }
        return self
    }
}
