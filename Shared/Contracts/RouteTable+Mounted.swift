/// Routes of apps served under a mount (API.md §9), relative to it: `/quotehub/auth/…` is
/// `/auth/…` of the app mounted at `quotehub`. The gateway strips the mount before matching and
/// forwarding; services see the relative path and the app's profile.
extension RouteTable {
    /// Each mounted profile's table.
    public static let mounted: [Dialect: RouteTable] = [.quotehub: RouteTable(quotehubRoutes)]

    public static let quotehubRoutes: [Route] = {
        var routes: [Route] = []
        func add(_ service: ServiceName, _ methods: String, _ pattern: String, paginated: Bool = false) {
            for method in methods.split(separator: ",") {
                routes.append(Route(String(method), pattern, service, appKey: .none, paginated: paginated))
            }
        }
        // auth-svc
        add(.auth, "POST", "/auth/apple/callback")
        add(.auth, "POST", "/auth/renew-token")
        add(.auth, "POST", "/auth/validate-token")
        add(.auth, "GET", "/auth/generate-nickname")
        add(.auth, "GET", "/auth/check-nickname")
        add(.auth, "PUT", "/auth/change-nickname")
        add(.auth, "GET,PUT", "/profile")
        add(.auth, "GET,HEAD", "/files/profiles/**")
        add(.auth, "GET", "/profile/{user_id}")
        add(.auth, "GET", "/user/search/{nickname}")
        add(.auth, "POST", "/block-report/block")
        add(.auth, "POST", "/block-report/unblock")
        add(.auth, "POST", "/block-report/report")
        add(.auth, "POST", "/block-report/cancel-report")
        add(.auth, "GET", "/block-report/blocked-users")
        add(.auth, "GET", "/block-report/reports")
        return routes
    }()
}
