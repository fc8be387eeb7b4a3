/// The body every service answers errors with: `{"code": "...", "message": "..."}`.
package struct CanonicalError: Codable, Sendable, Equatable {
    package var code: ErrorCode
    package var message: String

    package init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}
