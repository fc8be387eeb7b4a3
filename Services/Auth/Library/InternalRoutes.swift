import Contracts
import Hummingbird
import ServiceKit

/// What other processes ask auth-svc (behind the internal secret like everything but health).
struct InternalRoutes: Sendable {
    let apps: AppService
    let users: any UserStore
    let profiles: ProfileService
    let bans: BanService
    let reports: ReportQueue
    let operators: OperatorUserService
    let signingKey: SigningKey

    func register(on group: ServiceApplication.Group) {
        group.serve(InternalEndpoints.Auth.signingKeys) { _, _, _ in try PublicKeySet(signingKey.jwks) }
        group.serve(InternalEndpoints.Auth.resolveApp) { _, lookup, _ in
            guard !lookup.key.isEmpty else { throw ServiceError.badRequest("app key required") }
            guard lookup.key.utf8.count <= 256, let resolved = try await apps.resolve(key: lookup.key) else {
                throw ServiceError.notFound("unknown app key")
            }
            return resolved
        }
        group.serve(InternalEndpoints.Auth.resolveMount) { _, lookup, _ in
            guard (1...32).contains(lookup.mount.utf8.count), let app = try await apps.find(mount: lookup.mount) else {
                throw ServiceError.notFound("no app is mounted there")
            }
            return app.info
        }
        group.serve(InternalEndpoints.Activity.users) { _, query, context in try await operators.activity(query, appID: context.appID) }
        group.serve(InternalEndpoints.Auth.apps) { _, _, _ in try await apps.all().map(\.info) }
        group.serve(InternalEndpoints.Auth.appDetails) { _, _, _ in try await apps.all().map(\.detail) }
        group.serve(InternalEndpoints.Auth.createApp) { _, registration, _ in try await apps.register(registration) }
        group.serve(InternalEndpoints.Auth.changeApp) { appID, change, _ in try await apps.change(appID, change) }
        group.serve(InternalEndpoints.Auth.rotateAppKey) { appID, rotation, _ in try await apps.rotateKey(appID, rotation) }
        group.serve(InternalEndpoints.Auth.disableApp) { appID, disabling, _ in try await apps.setDisabled(appID, disabling.disabled) }
        group.serve(InternalEndpoints.Auth.app) { appID, _, _ in
            guard let app = try await apps.find(id: appID) else { throw ServiceError.notFound("unknown app") }
            return app.info
        }
        group.serve(InternalEndpoints.Auth.lookupUsers) { _, body, context in
            UserLookupAnswer(users: try await lookup(body, context).map(\.infoFull))
        }
        group.serve(InternalEndpoints.Auth.lookupMembers) { _, body, context in
            MemberLookupAnswer(users: try await lookup(body, context).map(AccountRenderer.user))
        }
        group.serve(InternalEndpoints.Auth.memberByEmail) { _, body, context in
            guard (1...254).contains(body.email.count),
                let user = try await users.user(email: body.email, appID: try context.requireAppID())
            else {
                throw ServiceError.notFound("no user with that email")
            }
            return AccountRenderer.user(user)
        }
        group.serve(InternalEndpoints.Auth.blockedUsers) { userID, _, _ in
            UserIDList(userIDs: try await profiles.blockedUsers(of: userID))
        }
        group.serve(InternalEndpoints.Auth.hiddenContent) { userID, _, _ in try await profiles.hidden(by: userID) }
        group.serve(InternalEndpoints.Auth.openReports) { _, _, context in try await reports.openSummary(appID: try context.requireAppID()) }
        group.serve(InternalEndpoints.Auth.reportQueue) { _, query, context in try await reports.groups(appID: try context.requireAppID(), query) }
        group.serve(InternalEndpoints.Auth.closeReports) { _, closing, context in try await reports.close(appID: try context.requireAppID(), closing)
        }
        group.serve(InternalEndpoints.Auth.searchUsers) { _, query, context in try await operators.search(query, appID: try context.requireAppID()) }
        group.serve(InternalEndpoints.Auth.userDetail) { userID, _, context in
            try await operators.detail(of: userID, appID: try context.requireAppID())
        }
        group.serve(InternalEndpoints.Auth.signOutUser) { userID, _, context in
            SignOutAnswer(sessions: try await bans.signOut(userID: userID, appID: try context.requireAppID()))
        }
        group.serve(InternalEndpoints.Auth.deleteUser) { userID, _, context in
            try await operators.delete(userID, appID: try context.requireAppID())
            return EmptyAnswer()
        }
        group.serve(InternalEndpoints.Auth.revocations) { _, poll, _ in try await bans.poll(after: poll.after) }
        group.serve(InternalEndpoints.Auth.banUser) { userID, request, context in
            try await bans.ban(userID: userID, appID: try context.requireAppID(), request)
        }
        group.serve(InternalEndpoints.Auth.unbanUser) { userID, _, context in
            try await bans.unban(userID: userID, appID: try context.requireAppID())
            return EmptyAnswer()
        }
    }

    private func lookup(_ body: UserLookupRequest, _ context: GlintRequestContext) async throws -> [UserRecord] {
        guard body.userIDs.count <= 500 else { throw ServiceError.badRequest("at most 500 user ids") }
        return try await users.users(ids: Array(Set(body.userIDs.filter { ObjectID.isValid($0) })), appID: try context.requireAppID())
    }
}
