import Contracts
import FileStorage
import Foundation
import Logging
import ServiceClients
import ServiceKit

/// API.md §8 workspaces and their members. A workspace is bought with coins from the market-svc
/// wallet: its name is taken first (pending), the coins are spent once under the workspace's key,
/// then it becomes active with its default channel in one transaction. A purchase left half-way
/// (market-svc or this process gone at the wrong moment) is given back by `giveUpAbandoned`.
struct WorkspaceService: Sendable {
    let workspaces: any WorkspaceStore
    let channels: any ChannelStore
    let renderer: WorkspaceRenderer
    let market: MarketClient
    let covers: FileStore
    let cost: Int
    let logger: Logger

    static let nameLength = 1...30
    static let maxDescriptionLength = 500

    func list(_ caller: AuthenticatedUser) async throws -> [WorkspaceAnswer] {
        try await workspaces.workspaces(of: caller.userID, appID: caller.appID).map(WorkspaceRenderer.workspace)
    }

    /// The workspace if the caller belongs to it (E13 otherwise: outsiders cannot see it).
    func workspace(_ id: String, of caller: AuthenticatedUser) async throws -> WorkspaceRecord {
        try await workspaces.workspace(id, member: caller.userID, appID: caller.appID)
    }

    /// The workspace if the caller owns it (E14 for other members).
    func owned(_ id: String, by caller: AuthenticatedUser) async throws -> WorkspaceRecord {
        let workspace = try await workspace(id, of: caller)
        guard workspace.ownerID == caller.userID else { throw ServiceError(.notPermitted, "only the workspace's owner may do that") }
        return workspace
    }

    func create(
        _ caller: AuthenticatedUser, name: String?, description: String?, image: MultipartForm.Part?, requestID: String
    ) async throws -> WorkspaceAnswer {
        let name = try Self.name(name)
        let description = try Self.description(description)
        guard let image else { throw ServiceError.badRequest("image required") }
        let cover = try await covers.store([image], appID: caller.appID)[0]
        let now = GlintDate.nowMilliseconds()
        let pending = WorkspaceRecord(
            id: ObjectID.generate(), appID: caller.appID, name: name, description: description, coverImage: cover,
            ownerID: caller.userID, state: .pending, createdAt: now)
        do {
            try await workspaces.reserve(pending)
        } catch {
            await covers.remove(publicPath: cover, appID: caller.appID)
            throw error
        }
        do {
            if cost > 0 { try await market.spendCoins(CoinSpend(key: pending.spendKey, userID: caller.userID, coins: cost), caller.appID, requestID) }
            let channel = ChannelRecord(
                roomID: ObjectID.generate(), workspaceID: pending.id, name: ChannelRecord.defaultName, description: nil,
                coverImage: nil, ownerID: caller.userID, createdAt: now, isDefault: true)
            let workspace = try await workspaces.activate(pending.id, defaultChannel: channel)
            logger.info("workspace created", metadata: ["workspace_id": "\(workspace.id)", "user_id": "\(caller.userID)", "coins": "\(cost)"])
            return WorkspaceRenderer.workspace(workspace)
        } catch {
            await giveUp(pending, requestID: requestID, spent: (error as? ServiceError)?.code != .notEnoughCoins)
            throw error
        }
    }

    /// Gives pending purchases older than `time` back (their request is long over): the spend is
    /// returned (or closed, if it never arrived) before the name is freed. Answers how many were
    /// tried (those whose coins cannot be given back yet stay for the next round).
    @discardableResult
    func giveUpAbandoned(before time: Int64) async throws -> Int {
        let abandoned = try await workspaces.pending(before: time, limit: 100)
        for workspace in abandoned { await giveUp(workspace, requestID: ObjectID.generate(), spent: true) }
        return abandoned.count
    }

    /// Undoes a purchase that did not finish; when the coins may have been spent and cannot be
    /// given back now, the workspace stays pending for `giveUpAbandoned`.
    private func giveUp(_ workspace: WorkspaceRecord, requestID: String, spent: Bool) async {
        do {
            if spent, cost > 0 { try await market.returnSpend(workspace.spendKey, workspace.appID, requestID) }
            try await workspaces.abandon(workspace.id)
            await covers.remove(publicPath: workspace.coverImage, appID: workspace.appID)
        } catch {
            logger.warning("workspace purchase left to give back later", metadata: ["workspace_id": "\(workspace.id)", "error": "\(error)"])
        }
    }

    func detail(_ caller: AuthenticatedUser, _ id: String, requestID: String) async throws -> WorkspaceDetail {
        let workspace = try await workspace(id, of: caller)
        return try await renderer.detail(
            workspace, channels: try await channels.channels(of: id), memberIDs: try await workspaces.members(of: id),
            requestID: requestID)
    }

    /// `""` or a missing value leaves a field as it is; a change to nothing is E12.
    func update(
        _ caller: AuthenticatedUser, _ id: String, name: String?, description: String?, image: MultipartForm.Part?
    ) async throws -> WorkspaceAnswer {
        var workspace = try await owned(id, by: caller)
        let before = workspace
        if let name, !name.isEmpty { workspace.name = try Self.name(name) }
        if let description, !description.isEmpty { workspace.description = try Self.description(description) }
        var cover: String?
        if let image { cover = try await covers.store([image], appID: caller.appID)[0] }
        if let cover { workspace.coverImage = cover }
        guard workspace != before else { throw ServiceError(.conflict, "nothing changed") }
        do {
            try await workspaces.update(workspace)
        } catch {
            if let cover { await covers.remove(publicPath: cover, appID: caller.appID) }
            throw error
        }
        if cover != nil { await covers.remove(publicPath: before.coverImage, appID: caller.appID) }
        return WorkspaceRenderer.workspace(workspace)
    }

    func delete(_ caller: AuthenticatedUser, _ id: String) async throws {
        let workspace = try await owned(id, by: caller)
        try await workspaces.delete(id)
        await covers.remove(publicPath: workspace.coverImage, appID: caller.appID)
        logger.info("workspace deleted", metadata: ["workspace_id": "\(id)", "user_id": "\(caller.userID)"])
    }

    func members(_ caller: AuthenticatedUser, _ id: String, requestID: String) async throws -> [SlpUser] {
        _ = try await workspace(id, of: caller)
        return try await renderer.users(try await workspaces.members(of: id), appID: caller.appID, requestID: requestID)
    }

    func member(_ caller: AuthenticatedUser, _ id: String, userID: String, requestID: String) async throws -> SlpUser {
        _ = try await workspace(id, of: caller)
        guard ObjectID.isValid(userID), try await workspaces.isMember(id, userID: userID) else {
            throw ServiceError.notFound("not a member of this workspace")
        }
        return try await renderer.users([userID], appID: caller.appID, requestID: requestID)[0]
    }

    func invite(_ caller: AuthenticatedUser, _ id: String, email: String, requestID: String) async throws -> SlpUser {
        _ = try await owned(id, by: caller)
        let email = email.trimmingCharacters(in: .whitespaces)
        guard (3...254).contains(email.count), email.contains("@") else { throw ServiceError.badRequest("a valid email is required") }
        guard let user = try await renderer.members.memberByEmail(email, caller.appID, requestID) else {
            throw ServiceError.notFound("no user with that email")
        }
        try await workspaces.addMember(id, userID: user.userID, appID: caller.appID, at: GlintDate.nowMilliseconds())
        return user
    }

    func transfer(_ caller: AuthenticatedUser, _ id: String, to ownerID: String) async throws -> WorkspaceAnswer {
        _ = try await owned(id, by: caller)
        guard ObjectID.isValid(ownerID) else { throw ServiceError.notFound("not a member of this workspace") }
        return WorkspaceRenderer.workspace(try await workspaces.transfer(id, to: ownerID))
    }

    /// Leaves the workspace (the owner cannot: E15) and answers those the caller still belongs to.
    func exit(_ caller: AuthenticatedUser, _ id: String) async throws -> [WorkspaceAnswer] {
        let workspace = try await workspace(id, of: caller)
        guard workspace.ownerID != caller.userID else { throw ServiceError(.cannotLeave, "the owner cannot leave; transfer the workspace first") }
        try await workspaces.leave(id, userID: caller.userID)
        return try await list(caller)
    }

    static func name(_ text: String?) throws -> String {
        let name = (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(name.count) else {
            throw ServiceError.badRequest("name must be \(nameLength.lowerBound) to \(nameLength.upperBound) characters")
        }
        return name
    }

    /// `""` is no description.
    static func description(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.count <= maxDescriptionLength else { throw ServiceError.badRequest("description is at most \(maxDescriptionLength) characters") }
        return text
    }
}
