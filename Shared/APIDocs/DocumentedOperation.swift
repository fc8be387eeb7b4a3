import Contracts

/// One public route of a profile as its document describes it: who may call it, what it takes
/// and what it answers. The shapes are the Contracts types themselves (`WireType`).
package struct DocumentedOperation: Sendable {
    package enum Access: Sendable {
        /// No token (sign-in, token renewal with the refresh token as Bearer).
        case open
        /// Works without a token and uses one when given.
        case guest
        /// A Bearer access token is required.
        case signedIn
    }

    package enum Body: Sendable {
        case none
        case json(WireType)
        /// JSON, or a multipart form with the same fields (lists JSON-encoded) and files.
        case jsonOrMultipart(WireType, files: String)
    }

    package struct Query: Sendable {
        package var name: String
        package var schema: WireSchema
        package var required: Bool
    }

    package var method: String
    package var pattern: String
    package var summary: String
    package var access: Access
    package var query: [Query] = []
    package var body: Body = .none
    /// The success answer; nil for a file.
    package var answer: WireType?
    package var status = 200
}
