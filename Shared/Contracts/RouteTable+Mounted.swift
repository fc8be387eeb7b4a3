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
        add(.auth, "POST", "/auth/revoke")
        // market-svc
        add(.market, "GET", "/book/search")
        add(.market, "GET", "/book/todayBooks")
        add(.market, "GET,HEAD", "/files/bookstories/**")
        add(.market, "GET,HEAD", "/files/folders/**")
        add(.market, "POST", "/bookstories/createBookStory")
        add(.market, "PUT", "/bookstories/update/{id}")
        add(.market, "DELETE", "/bookstories/delete/{id}")
        add(.market, "GET", "/bookstories/{id}")
        add(.market, "GET", "/bookstories/count")
        add(.market, "GET", "/bookstories/count/{user_id}")
        for list in [
            "/bookstories/public", "/bookstories/friend/{user_id}", "/bookstories/my", "/bookstories/public/search",
            "/bookstories/friend/search/{user_id}", "/bookstories/my/search", "/folder/all", "/folder/user/{user_id}",
            "/folder/myfolder", "/folder/public/{id}", "/folder/friend/{user_id}/{id}", "/folder/my/{id}",
        ] {
            add(.market, "GET", list, paginated: true)
        }
        add(.market, "POST", "/folder/create")
        add(.market, "PUT", "/folder/update/{id}")
        add(.market, "DELETE", "/folder/delete/{id}")
        add(.market, "GET", "/folder/{id}")
        add(.market, "POST", "/bookstoriesComments")
        add(.market, "PUT,DELETE", "/bookstoriesComments/{id}")
        add(.market, "GET", "/bookstoriesComments/{id}", paginated: true)
        add(.market, "GET", "/bookstoriesComments/count/{id}")
        return routes
    }()
}
