/// What operators hide and restore (issue 35): each kind lives in one service (posts, comments,
/// filters, stories and themes in market-svc; messages in chat-svc).
package enum ContentKind: String, Codable, Sendable, CaseIterable {
    case post, comment, filter, story, theme, message

    /// The service that keeps this kind.
    package var service: ServiceName { self == .message ? .chat : .market }
}

extension ContentKind: WireEnum {}

/// A piece of content addressed by kind and id (an internal endpoint's two path values).
package struct ContentRef: EndpointParameter, Equatable {
    package var kind: String
    package var id: String

    package init(kind: ContentKind, id: String) {
        (self.kind, self.id) = (kind.rawValue, id)
    }

    package static var count: Int { 2 }
    package var pathValues: [String] { [kind, id] }
    package init(pathValues: [String]) {
        kind = pathValues.first ?? ""
        id = pathValues.count > 1 ? pathValues[1] : ""
    }
}

/// admin-svc → the content's service: hide or restore, by whom and why.
package struct ModerationRequest: Codable, Sendable, Equatable {
    package var operatorID: String
    package var reason: String?

    package init(operatorID: String, reason: String? = nil) {
        (self.operatorID, self.reason) = (operatorID, reason)
    }
}

/// A piece of content as operators see it: whose it is, a preview (its text, cut short), its
/// images as stored (`/data/<area>/<name>`), when it was written, and whether and by whom it is
/// hidden. `createdAt` and `hiddenAt` are API.md's date strings.
package struct ContentSummary: Codable, Sendable, Equatable {
    package var kind: ContentKind
    package var id: String
    package var appId: String
    package var authorId: String
    package var preview: String
    package var files: [String]
    package var createdAt: String
    package var hidden: Bool
    package var hiddenAt: String?
    package var hiddenBy: String?
    package var hiddenReason: String?

    package init(
        kind: ContentKind, id: String, appId: String, authorId: String, preview: String, files: [String] = [], createdAt: String = "",
        hidden: Bool, hiddenAt: String? = nil, hiddenBy: String? = nil, hiddenReason: String? = nil
    ) {
        (self.kind, self.id, self.appId, self.authorId, self.preview, self.hidden) = (kind, id, appId, authorId, preview, hidden)
        (self.files, self.createdAt) = (files, createdAt)
        (self.hiddenAt, self.hiddenBy, self.hiddenReason) = (hiddenAt, hiddenBy, hiddenReason)
    }
}

/// admin-svc → the content's service: several pieces of one kind at once, either by id (a page of
/// the reports queue; ids not found are left out) or an author's newest (`limit`, default 20).
package struct ContentFind: Codable, Sendable, Equatable {
    package var ids: [String]?
    package var authorId: String?
    package var limit: Int?

    package static let maxIDs = 200
    package static let maxLimit = 100

    package init(ids: [String]? = nil, authorId: String? = nil, limit: Int? = nil) {
        (self.ids, self.authorId, self.limit) = (ids, authorId, limit)
    }
}
