import Contracts
import Hummingbird
import ServiceKit

/// An app's payments (owners and admins): receipts by user, order or imp_uid, each with its
/// refund form (a reason; PortOne cancels it and the grant is taken back).
struct PaymentPages: Sendable {
    let console: Console
    let desk: PaymentDesk

    struct View {
        var appID: String
        var user: String
        var order: String
        var impUID: String
        var payments: [OperatorPayment]
    }

    func register(on group: ServiceApplication.Group) {
        console.page(group, "/admin/apps/{app_id}/payments") { request, context, visit in
            let app = try visit.app(context)
            let search = try PaymentDesk.search(request.uri.queryParameters)
            let view = View(
                appID: app.appID, user: search.userId ?? "", order: search.merchantUid ?? "", impUID: search.impUid ?? "",
                payments: try await desk.search(search, app: app, by: visit.op))
            return Console.Page(template: "payments", title: "Payments · \(app.name)", content: view, app: app)
        }
        console.action(group, "/admin/apps/{app_id}/payments/{imp_uid}/refund") { _, context, visit in
            let app = try visit.app(context)
            let impUID = try context.parameters.require("imp_uid")
            _ = try await desk.refund(impUID, reason: visit.form["reason"] ?? "", app: app, by: visit.op)
            return ConsoleRenderer.redirect("/admin/apps/\(app.appID)/payments?imp_uid=\(impUID)&done=refunded")
        }
    }
}
