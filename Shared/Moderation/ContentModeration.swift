import Contracts
import ServiceKit
import ServiceLifecycle
import Storage

/// Operators' hiding and restoring of one service's content (issue 35), and what its reads ask:
/// the ids hidden in an app, kept until the next change (`ChangeSignal`: on PostgreSQL every
/// replica hears it), so a hide is gone from the next request on any replica.
package struct ContentModeration: Sendable {
    /// Whose a piece of content is and its text, as operators see it; nil when there is none.
    package typealias Lookup = @Sendable (_ kind: ContentKind, _ id: String, _ appID: String) async throws -> (authorID: String, preview: String)?

    private let store: any HiddenContentStore
    private let changes: ChangeSignal
    private let cache: ChangeBoundCache<String, Set<String>>
    private let kinds: [ContentKind]
    private let lookup: Lookup

    package init(store: any HiddenContentStore, changes: ChangeSignal, kinds: [ContentKind], lookup: @escaping Lookup) {
        (self.store, self.changes, self.kinds, self.lookup) = (store, changes, kinds, lookup)
        cache = ChangeBoundCache(changes: changes.counter, maxCost: 100_000) { $0.count + 1 }
    }

    /// What runs with the service (PostgreSQL's listener).
    package var services: [any Service] { changes.services }

    /// The ids of `kind` hidden in the app.
    package func hiddenIDs(_ kind: ContentKind, appID: String) async throws -> Set<String> {
        let key = appID + "/" + kind.rawValue
        let generation = cache.generation
        if let kept = cache.value(for: key, generation: generation) { return kept }
        let ids = try await store.ids(kind: kind, appID: appID)
        cache.store([(key, ids)], generation: generation)
        return ids
    }

    package func isHidden(_ kind: ContentKind, id: String, appID: String) async throws -> Bool {
        try await hiddenIDs(kind, appID: appID).contains(id)
    }

    package func summary(_ kind: ContentKind, id: String, appID: String) async throws -> ContentSummary {
        guard kinds.contains(kind), ObjectID.isValid(id), let found = try await lookup(kind, id, appID) else {
            throw ServiceError.notFound("no such \(kind.rawValue)")
        }
        let record = try await store.record(kind: kind, contentID: id, appID: appID)
        return ContentSummary(
            kind: kind, id: id, appId: appID, authorId: found.authorID, preview: String(found.preview.prefix(280)), hidden: record != nil,
            hiddenAt: record.map { GlintDate.string(fromMilliseconds: $0.hiddenAt) }, hiddenBy: record?.operatorID,
            hiddenReason: record.flatMap { $0.reason.isEmpty ? nil : $0.reason })
    }

    package func hide(_ kind: ContentKind, id: String, appID: String, _ request: ModerationRequest) async throws -> ContentSummary {
        _ = try await summary(kind, id: id, appID: appID)
        guard (request.reason ?? "").count <= 500 else { throw ServiceError.badRequest("a reason of at most 500 characters") }
        try await store.hide(
            HiddenContentRecord(
                appID: appID, kind: kind, contentID: id, operatorID: request.operatorID, reason: request.reason ?? "",
                hiddenAt: GlintDate.nowMilliseconds()))
        try await changes.announce()
        return try await summary(kind, id: id, appID: appID)
    }

    package func restore(_ kind: ContentKind, id: String, appID: String) async throws -> ContentSummary {
        _ = try await summary(kind, id: id, appID: appID)
        if try await store.restore(kind: kind, contentID: id, appID: appID) { try await changes.announce() }
        return try await summary(kind, id: id, appID: appID)
    }

    /// Serves the content endpoints of this service's kinds.
    package func register(on group: ServiceApplication.Group) {
        guard let kind = kinds.first else { return }
        group.serve(InternalEndpoints.Content.summary(kind)) { ref, _, context in
            try await summary(try Self.kind(ref), id: ref.id, appID: try context.requireAppID())
        }
        group.serve(InternalEndpoints.Content.hide(kind)) { ref, request, context in
            try await hide(try Self.kind(ref), id: ref.id, appID: try context.requireAppID(), request)
        }
        group.serve(InternalEndpoints.Content.restore(kind)) { ref, _, context in
            try await restore(try Self.kind(ref), id: ref.id, appID: try context.requireAppID())
        }
    }

    private static func kind(_ ref: ContentRef) throws -> ContentKind {
        guard let kind = ContentKind(rawValue: ref.kind) else { throw ServiceError.notFound("no such kind of content") }
        return kind
    }
}
