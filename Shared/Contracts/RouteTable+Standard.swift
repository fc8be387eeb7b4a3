/// Every public path of API.md and its owner. The gateway forwards only what is listed here
/// (and serves the one route it owns itself).
extension RouteTable {
    public static let standard = RouteTable(publicRoutes)

    public static let publicRoutes: [Route] = {
        var routes: [Route] = []
        func add(_ service: ServiceName, _ methods: String, _ pattern: String, appKey: AppKeyRule = .required) {
            for method in methods.split(separator: ",") {
                routes.append(Route(String(method), pattern, service, appKey: appKey))
            }
        }
        // §1 auth-svc
        add(.auth, "POST", "/v1/users/validation/email")
        add(.auth, "POST", "/v1/users/join")
        add(.auth, "POST", "/v1/users/login")
        add(.auth, "POST", "/v1/users/login/apple")
        add(.auth, "POST", "/v1/users/login/kakao")
        add(.auth, "GET", "/v1/auth/refresh")
        add(.auth, "POST", "/v1/users/logout")
        add(.auth, "GET", "/v1/users/withdraw")
        add(.auth, "GET,PUT", "/v1/users/me/profile")
        add(.auth, "GET", "/v1/users/{user_id}/profile")
        add(.auth, "GET", "/v1/users/search")
        add(.auth, "POST,DELETE", "/v1/follow/{user_id}")
        add(.auth, "POST,DELETE", "/v1/users/{user_id}/block")
        add(.auth, "POST", "/v1/reports")
        add(.auth, "POST", "/v1/users/attendance")
        add(.auth, "GET,HEAD", "/v1/data/profiles/**")
        // §8 auth-svc, workspace (slp) apps
        add(.auth, "GET,PUT", "/v1/users/me")
        add(.auth, "PUT", "/v1/users/me/image")
        add(.auth, "GET", "/v1/users/{user_id}")
        // §2 market-svc
        add(.market, "POST", "/v1/filters/files")
        add(.market, "GET,POST", "/v1/filters")
        add(.market, "GET,PUT,DELETE", "/v1/filters/{filter_id}")
        add(.market, "POST", "/v1/filters/{filter_id}/like")
        add(.market, "GET", "/v1/filters/users/{user_id}")
        add(.market, "GET", "/v1/filters/likes/me")
        add(.market, "GET", "/v1/filters/hot-trend")
        add(.market, "GET", "/v1/filters/today-filter")
        add(.market, "GET", "/v1/users/today-author")
        add(.market, "GET", "/v1/banners/main")
        add(.market, "POST", "/v1/filters/{filter_id}/comments")
        add(.market, "PUT,DELETE", "/v1/filters/{filter_id}/comments/{comment_id}")
        add(.market, "POST", "/v1/posts/files")
        add(.market, "GET,POST", "/v1/posts")
        add(.market, "GET,PUT,DELETE", "/v1/posts/{post_id}")
        add(.market, "POST", "/v1/posts/{post_id}/like")
        add(.market, "POST", "/v1/posts/{post_id}/like-2")
        add(.market, "POST", "/v1/posts/{post_id}/comments")
        add(.market, "PUT,DELETE", "/v1/posts/{post_id}/comments/{comment_id}")
        add(.market, "GET", "/v1/posts/users/{user_id}")
        add(.market, "GET", "/v1/posts/likes/me")
        add(.market, "GET", "/v1/posts/likes-2/me")
        add(.market, "GET", "/v1/posts/hashtags")
        add(.market, "GET", "/v1/posts/search")
        add(.market, "GET,POST", "/v1/orders")
        add(.market, "GET,HEAD", "/v1/data/filters/**")
        add(.market, "GET,HEAD", "/v1/data/posts/**")
        // §3 chat-svc
        add(.chat, "GET,POST", "/v1/chats")
        add(.chat, "GET", "/v1/chats/unreads")
        add(.chat, "GET,POST", "/v1/chats/{room_id}")
        add(.chat, "POST", "/v1/chats/{room_id}/files")
        add(.chat, "GET", "/v1/chats/{room_id}/search")
        add(.chat, "PUT", "/v1/chats/{room_id}/read")
        add(.chat, "GET,HEAD", "/v1/data/chats/**")
        add(.chat, "GET,POST", "/socket.io/**", appKey: .optional)
        // §8 chat-svc, workspace (slp) apps
        add(.chat, "GET,POST", "/v1/workspaces")
        add(.chat, "GET,PUT,DELETE", "/v1/workspaces/{wid}")
        add(.chat, "GET,POST", "/v1/workspaces/{wid}/members")
        add(.chat, "GET", "/v1/workspaces/{wid}/members/{user_id}")
        add(.chat, "PUT", "/v1/workspaces/{wid}/transfer/ownership")
        add(.chat, "GET", "/v1/workspaces/{wid}/exit")
        add(.chat, "GET,POST", "/v1/workspaces/{wid}/channels")
        add(.chat, "GET", "/v1/workspaces/{wid}/my-channels")
        add(.chat, "GET,PUT,DELETE", "/v1/workspaces/{wid}/channels/{cid}")
        add(.chat, "GET", "/v1/workspaces/{wid}/channels/{cid}/exit")
        add(.chat, "GET,POST", "/v1/workspaces/{wid}/channels/{cid}/chats")
        add(.chat, "GET", "/v1/workspaces/{wid}/channels/{cid}/unreads")
        add(.chat, "GET,POST", "/v1/workspaces/{wid}/dms")
        add(.chat, "GET,POST", "/v1/workspaces/{wid}/dms/{room}/chats")
        add(.chat, "GET", "/v1/workspaces/{wid}/dms/{room}/unreads")
        add(.chat, "GET,HEAD", "/v1/data/workspaces/**")
        // §4 geo-svc
        add(.geo, "GET", "/v1/posts/geolocation")
        add(.geo, "GET", "/v1/geo/reverse")
        add(.geo, "GET,POST", "/v1/walks")
        add(.geo, "GET", "/v1/walks/{walk_id}")
        // §5 payment-verify-svc
        add(.paymentVerify, "POST", "/v1/payments/validation")
        add(.paymentVerify, "GET", "/v1/payments/me")
        add(.paymentVerify, "GET", "/v1/payments/{id}")
        add(.paymentVerify, "POST", "/v1/payments/webhook", appKey: .none)
        add(.paymentVerify, "POST", "/v1/store/pay/validation")
        add(.paymentVerify, "GET", "/v1/store/item/list")
        // §6 push-svc
        add(.push, "PUT", "/v1/users/deviceToken")
        add(.push, "POST", "/v1/notifications/push")
        add(.push, "POST", "/v1/notifications/push/group")
        // admin-svc: operators' API (issue 35), behind its own session cookie, not an app's key
        add(.admin, "GET,POST,DELETE", "/admin/api/**", appKey: .none)
        // admin-svc: the operator console's pages (issue 36), forms posted by a browser
        add(.admin, "GET,POST", "/admin/**", appKey: .none)
        // §7 the gateway's own page (the key is embedded when a valid one is sent)
        add(.gateway, "GET", "/event-application", appKey: .optional)
        return routes
    }()
}
