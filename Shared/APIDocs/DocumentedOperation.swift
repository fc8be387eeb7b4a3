import Contracts

/// One public route of a profile as its document describes it: who may call it, what it takes
/// and what it answers. The shapes are the Contracts types themselves (`WireType`).
package struct DocumentedOperation: Sendable {
    package enum Access: Sendable {
        /// No token (sign-in, token renewal, stored files).
        case open
        /// Works without a token and uses one when given.
        case guest
        /// An access token is required.
        case signedIn
    }

    package enum Body: Sendable {
        case none
        case json(WireType)
        /// JSON, or a multipart form with the same fields (lists JSON-encoded) and files.
        case jsonOrMultipart(WireType, files: String)
        /// A multipart form only: its text fields and the file part's name.
        case multipart(fields: [String], files: String, filesRequired: Bool)
        /// Plain text (Engine.IO's packets).
        case text
    }

    package enum Answer: Sendable {
        case json(WireType)
        /// A stored image.
        case file
        /// Engine.IO's polling transport: its text packets (API.md §3).
        case engineIO
        /// An HTML page.
        case page
    }

    package struct Parameter: Sendable {
        package var name: String
        package var schema: WireSchema
        package var required: Bool

        package init(_ name: String, _ schema: WireSchema, required: Bool = false) {
            (self.name, self.schema, self.required) = (name, schema, required)
        }
    }

    package var method: String
    /// The route table's pattern.
    package var pattern: String
    package var summary: String
    package var access: Access
    package var query: [Parameter] = []
    package var headers: [Parameter] = []
    package var body: Body = .none
    package var answer: Answer
    package var status = 200
    /// Where clients call a wildcard route whose wildcard stands for nothing (`/socket.io/`).
    package var servedAt: String?

    /// The path the document lists this operation under.
    package var documentedPath: String { servedAt ?? pattern }

    /// `get_v1_posts_{post_id}`: unique within a document (method and path are).
    package var operationID: String { method.lowercased() + documentedPath.replacingOccurrences(of: "/", with: "_") }
}
