import Contracts
import ServiceKit
import ServiceLifecycle
import Storage

/// Operators' hiding and restoring of one service's content (issue 35), and what its reads ask:
/// the ids hidden in an app, kept until the next change (`ChangeSignal`: on PostgreSQL every
/// replica hears it), so a hide is gone from the next request on any replica.
package struct ContentModeration: Sendable {
    private let store: any HiddenContentStore
    private let changes: ChangeSignal
    private let cache: ChangeBoundCache<String, Set<String>>
    private let kinds: [ContentKind]
    private let catalog: ContentCatalog

    package init(store: any HiddenContentStore, changes: ChangeSignal, kinds: [ContentKind], catalog: ContentCatalog) {
        (self.store, self.changes, self.kinds, self.catalog) = (store, changes, kinds, catalog)
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
        guard kinds.contains(kind), ObjectID.isValid(id), let found = try await summary(kind, id: id, appID: appID, hidden: nil) else {
            throw ServiceError.notFound("no such \(kind.rawValue)")
        }
        return found
    }

    /// Several pieces by id (those not found left out) or an author's newest.
    package func find(_ kind: ContentKind, _ query: ContentFind, appID: String) async throws -> [ContentSummary] {
        guard kinds.contains(kind) else { throw ServiceError.notFound("no such kind of content") }
        let ids: [String]
        switch (query.ids, query.authorId) {
        case (let given?, nil):
            guard given.count <= ContentFind.maxIDs else { throw ServiceError.badRequest("at most \(ContentFind.maxIDs) ids") }
            ids = given.filter(ObjectID.isValid)
        case (nil, let author?):
            let limit = query.limit ?? 20
            guard (1...ContentFind.maxLimit).contains(limit) else { throw ServiceError.badRequest("limit must be 1 to \(ContentFind.maxLimit)") }
            ids = ObjectID.isValid(author) ? try await catalog.authored(kind, author, appID, limit) : []
        default:
            throw ServiceError.badRequest("ids or authorId, one of them")
        }
        return try await summaries(kind, ids, appID: appID)
    }

    /// A message with its neighbours in the room, oldest first.
    package func around(_ kind: ContentKind, id: String, appID: String) async throws -> [ContentSummary] {
        guard kinds.contains(kind), let around = catalog.around, ObjectID.isValid(id) else { throw ServiceError.notFound("no such \(kind.rawValue)") }
        let ids = try await around(id, appID)
        guard ids.contains(id) else { throw ServiceError.notFound("no such \(kind.rawValue)") }
        return try await summaries(kind, ids, appID: appID)
    }

    /// The pieces in the order of `ids`; whether each is hidden read once from the kept set.
    private func summaries(_ kind: ContentKind, _ ids: [String], appID: String) async throws -> [ContentSummary] {
        let hidden = try await hiddenIDs(kind, appID: appID)
        var found: [ContentSummary] = []
        for id in ids {
            if let summary = try await summary(kind, id: id, appID: appID, hidden: hidden) { found.append(summary) }
        }
        return found
    }

    /// `hidden`: the app's hidden ids when known, so a piece not among them costs no second read.
    private func summary(_ kind: ContentKind, id: String, appID: String, hidden: Set<String>?) async throws -> ContentSummary? {
        guard let found = try await catalog.find(kind, id, appID) else { return nil }
        let record = hidden?.contains(id) == false ? nil : try await store.record(kind: kind, contentID: id, appID: appID)
        return ContentSummary(
            kind: kind, id: id, appId: appID, authorId: found.authorID, preview: String(found.preview.prefix(280)), files: found.files,
            createdAt: GlintDate.string(fromMilliseconds: found.createdAt), hidden: record != nil,
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
        group.serve(InternalEndpoints.Content.find(kind)) { kindName, query, context in
            try await find(try Self.kind(ContentRef(pathValues: [kindName])), query, appID: try context.requireAppID())
        }
        if catalog.around != nil {
            group.serve(InternalEndpoints.Content.around) { ref, _, context in
                try await around(try Self.kind(ref), id: ref.id, appID: try context.requireAppID())
            }
        }
    }

    private static func kind(_ ref: ContentRef) throws -> ContentKind {
        guard let kind = ContentKind(rawValue: ref.kind) else { throw ServiceError.notFound("no such kind of content") }
        return kind
    }
}
