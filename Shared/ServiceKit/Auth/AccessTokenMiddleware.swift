import Hummingbird

/// Requires a valid access token of the calling app on every route behind it. The token comes
/// raw in `Authorization` (released clients send no scheme) or as `Bearer <token>`.
package struct AccessTokenMiddleware: RouterMiddleware {
    package typealias Context = GlintRequestContext
    let verifier: AccessTokenVerifier
    /// False for guest routes (API.md §9): no token passes as a guest, but a token sent must be
    /// valid (the client renews it on 401), and then the reader's blocks apply.
    let required: Bool

    package init(verifier: AccessTokenVerifier, required: Bool = true) {
        self.verifier = verifier
        self.required = required
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = Self.token(from: request) else {
            if !required { return try await next(request, context) }
            throw ServiceError(.tokenInvalid, "access token required")
        }
        let user = try await verifier.verify(token)
        if let appID = context.appID, appID != user.appID {
            throw ServiceError(.tokenInvalid, "access token belongs to another app")
        }
        var context = context
        context.user = user
        context.logger[metadataKey: "user_id"] = .string(user.userID)
        return try await next(request, context)
    }

    package static func token(from request: Request) -> String? {
        token(fromHeader: request.headers.value(of: .authorization))
    }

    /// A token as clients send it: raw, or after `Bearer `. Read on the bytes: this runs on
    /// every request, and Foundation's trimming and a `Character` count over a 300-byte token
    /// were a visible share of a feed request.
    package static func token(fromHeader header: String?) -> String? {
        guard let header else { return nil }
        var value = trimmed(Substring(header))
        if value.utf8.count > 7, String(value.utf8.prefix(7))?.lowercased() == "bearer " {
            value = trimmed(value.dropFirst(7))
        }
        return value.isEmpty ? nil : String(value)
    }

    /// Without the spaces and tabs around it (a header's optional whitespace).
    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = text.utf8.firstIndex(where: { !blank($0) }), let last = text.utf8.lastIndex(where: { !blank($0) }) else { return "" }
        return text[first...last]
    }
}
