/// The body every service answers errors with: `{"code": "...", "message": "..."}`.
public struct CanonicalError: Codable, Sendable, Equatable {
    public var code: ErrorCode
    public var message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}
