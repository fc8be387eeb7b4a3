/// What operators can see and do, one desk per area; the admin API's routes and the console's
/// pages both call these, so what a page can do the API can do, by the same code.
struct Desks: Sendable {
    var reports: ReportDesk
    var users: UserDesk
    var content: ContentDesk
    var operators: OperatorDesk
    var audit: AuditDesk
    var apps: AppDesk
    var payments: PaymentDesk
    var requests: RequestLogDesk
    var push: PushDesk
}
