import Contracts

/// The layout around every console page: the operator, the navigation it may use, the CSRF
/// token its forms carry, and a notice from the action just done.
struct Chrome {
    struct NavApp {
        var id: String
        var name: String
        var current: Bool
    }

    var title: String
    var signedIn: Bool
    var email = ""
    var role = ""
    var csrf = ""
    var isOwner = false
    /// Owners and admins: apps' settings and the audit log.
    var manages = false
    var apps: [NavApp] = []
    /// The app the page is about, whose sections the navigation shows.
    var app: NavApp?
    var notice: String?

    init(title: String, visit: Console.Visit?, app: AppInfo?, notice: String?) {
        (self.title, self.notice, signedIn) = (title, notice, visit != nil)
        guard let visit else { return }
        let record = visit.op.record
        (email, role, csrf) = (record.email, record.role.rawValue, visit.op.session.csrfToken)
        isOwner = record.role == .owner
        manages = record.role != .moderator
        apps = visit.apps.map { NavApp(id: $0.appID, name: $0.name, current: $0.appID == app?.appID) }
        self.app = app.map { NavApp(id: $0.appID, name: $0.name, current: true) }
    }
}
