import Contracts
import Hummingbird
import ServiceKit

/// Apps (owners and admins): the list with each app's state and key hint, registering one
/// (owners), and per app its flags and sign-in providers, a key rotation with a grace, disabling.
/// A new key is shown on the answer page of the form that made it, and nowhere after.
struct AppPages: Sendable {
    let console: Console
    let desk: AppDesk

    struct ListView {
        var apps: [AppDetail]
        var canCreate: Bool
        var profiles: [Choice]
    }

    struct SettingsView {
        var app: AppDetail
        var appleClientIds: String
        var graces: [Choice]
    }

    struct KeyView {
        var issued: AppKeyIssued
        var rotated: Bool
    }

    /// The graces a rotation's form suggests (any number of seconds is taken): the old key keeps
    /// working this long.
    static let graces = [("0", "none"), ("3600", "1 hour"), ("86400", "1 day"), ("604800", "7 days"), ("2592000", "30 days")]

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps") { _, _, visit in
            let view = ListView(
                apps: try await desk.details(by: visit.op), canCreate: visit.op.record.role == .owner,
                profiles: Choice.list(Dialect.allCases.map(\.rawValue), selected: Dialect.lslp.rawValue))
            return Console.Page(template: "apps", title: "Apps", content: view)
        }
        console.action(group, "/admin/apps") { _, _, visit in
            guard let profile = visit.field("profile").flatMap(Dialect.init(rawValue:)) else {
                throw ServiceError.badRequest("profile must be lslp, slp or quotehub")
            }
            let registration = AppRegistration(
                name: visit.form["name"] ?? "", profile: profile, mount: visit.field("mount"), key: visit.field("key"),
                settings: try Self.settings(visit))
            let issued = try await desk.create(registration, by: visit.op)
            return console.render(Console.Page(template: "app-key", title: "App registered", content: KeyView(issued: issued, rotated: false)), visit)
        }
        console.page(group, "/admin/apps/{app_id}/settings") { _, context, visit in
            let app = try visit.app(context)
            let detail = try await desk.detail(app.appID, by: visit.op)
            let view = SettingsView(
                app: detail, appleClientIds: detail.appleClientIds.joined(separator: ", "),
                graces: Self.graces.map { Choice(value: $0.0, label: $0.1, selected: false) })
            return Console.Page(template: "app", title: "Settings · \(app.name)", content: view, app: app)
        }
        console.action(group, "/admin/apps/{app_id}/settings") { _, context, visit in
            let app = try visit.app(context)
            _ = try await desk.change(app.appID, try Self.settings(visit), by: visit.op)
            return ConsoleRenderer.redirect("/admin/apps/\(app.appID)/settings?done=app-changed")
        }
        console.action(group, "/admin/apps/{app_id}/rotate-key") { _, context, visit in
            let app = try visit.app(context)
            guard let grace = visit.field("grace_seconds").flatMap(Int.init) else { throw ServiceError.badRequest("choose a grace") }
            let issued = try await desk.rotateKey(app.appID, KeyRotation(graceSeconds: grace), by: visit.op)
            return console.render(
                Console.Page(template: "app-key", title: "Key rotated · \(app.name)", content: KeyView(issued: issued, rotated: true), app: app),
                visit)
        }
        for (action, disabled) in [("disable", true), ("enable", false)] {
            console.action(group, RouterPath("/admin/apps/{app_id}/" + action)) { _, context, visit in
                let app = try visit.app(context)
                _ = try await desk.setDisabled(app.appID, disabled, by: visit.op)
                return ConsoleRenderer.redirect("/admin/apps/\(app.appID)/settings?done=\(disabled ? "app-disabled" : "app-enabled")")
            }
        }
    }

    /// The settings a form carries: checkboxes for flags, ids separated by commas, an Apple key
    /// only when its three fields are filled.
    private static func settings(_ visit: Console.Visit) throws -> AppSettingsChange {
        let flags = AppFlags(
            refreshWithAccessTokenOnly: visit.form["refresh_with_access_token_only"] == "on",
            emptyAuthErrorBodies: visit.form["empty_auth_error_bodies"] == "on", socketAuthOptional: visit.form["socket_auth_optional"] == "on")
        let audiences = (visit.form["apple_client_ids"] ?? "").split { $0 == "," || $0.isNewline }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        var appleKey: AppleKeyUpload?
        let parts = [visit.field("apple_team_id"), visit.field("apple_key_id"), visit.field("apple_private_key")]
        if parts.allSatisfy({ $0 != nil }) {
            appleKey = AppleKeyUpload(teamId: parts[0]!, keyId: parts[1]!, privateKey: parts[2]!)
        } else if parts.contains(where: { $0 != nil }) {
            throw ServiceError.badRequest("an Apple key needs its team id, key id and .p8 contents together")
        }
        return AppSettingsChange(flags: flags, appleClientIds: audiences, kakaoAppId: visit.form["kakao_app_id"] ?? "", appleKey: appleKey)
    }
}
