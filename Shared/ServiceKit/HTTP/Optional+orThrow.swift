extension Optional {
    /// The value, or an error saying stored JSON (an outbox payload, a saved list) did not decode:
    /// a bug, not bad input.
    package func orThrow() throws -> Wrapped {
        guard let self else { throw ServiceError(.internalError, "undecodable stored JSON") }
        return self
    }
}
