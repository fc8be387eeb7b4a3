import Contracts

/// API.md §1–§7, route by route, for the `lslp` document (the default profile): every route of
/// the standard table but the workspace family of §8.
package enum LslpCatalogue {
    package static let operations: [DocumentedOperation] = {
        typealias Op = DocumentedOperation
        typealias P = Op.Parameter
        func json<T: Decodable & Sendable>(_ type: T.Type) -> Op.Answer { .json(.of(T.self)) }
        let empty = json(EmptyAnswer.self)
        let cursor = [P("next", .string), P("limit", .integer)]
        let postFeed = cursor + [P("category", .array(.string)), P("product_id", .string)]
        let filterList = cursor + [P("category", .string)]
        let coordinates = [P("longitude", .number, required: true), P("latitude", .number, required: true)]
        let upload = Op.Body.multipart(fields: [], files: "files", filesRequired: true)
        var operations: [Op] = [
            // §1
            Op(
                method: "POST", pattern: "/v1/users/validation/email", summary: "Whether an email is free to join with", access: .open,
                body: .json(.of(EmailValidationRequest.self)), answer: json(MessageAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/users/join", summary: "Join with email and password", access: .open,
                body: .json(.of(JoinRequest.self)), answer: json(JoinAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/users/login", summary: "Sign in with email and password", access: .open,
                body: .json(.of(LoginRequest.self)), answer: json(AuthAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/users/login/apple", summary: "Sign in with an Apple identity token", access: .open,
                body: .json(.of(AppleLoginRequest.self)), answer: json(AuthAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/users/login/kakao", summary: "Sign in with a Kakao access token", access: .open,
                body: .json(.of(KakaoLoginRequest.self)), answer: json(AuthAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/auth/refresh",
                summary: "A new token pair: the expired access token in Authorization, the refresh token in RefreshToken (rotated)",
                access: .signedIn, headers: [P("RefreshToken", .string)], answer: json(TokenPair.self)),
            Op(method: "POST", pattern: "/v1/users/logout", summary: "End the session", access: .signedIn, answer: empty),
            Op(method: "GET", pattern: "/v1/users/withdraw", summary: "Delete one's account", access: .signedIn, answer: json(WithdrawAnswer.self)),
            Op(method: "GET", pattern: "/v1/users/me/profile", summary: "One's profile", access: .signedIn, answer: json(ProfileAnswer.self)),
            Op(
                method: "PUT", pattern: "/v1/users/me/profile", summary: "Edit one's profile (file part `profile`)", access: .signedIn,
                body: .jsonOrMultipart(.of(ProfileUpdate.self), files: "profile"), answer: json(ProfileAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/users/{user_id}/profile", summary: "A user's profile", access: .signedIn,
                answer: json(ProfileAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/users/search", summary: "Users by nickname", access: .signedIn, query: [P("nick", .string)],
                answer: json(DataList<UserInfo>.self)),
            Op(method: "POST", pattern: "/v1/follow/{user_id}", summary: "Follow a user", access: .signedIn, answer: json(FollowAnswer.self)),
            Op(
                method: "DELETE", pattern: "/v1/follow/{user_id}", summary: "Stop following a user", access: .signedIn,
                answer: json(FollowAnswer.self)),
            Op(method: "POST", pattern: "/v1/users/{user_id}/block", summary: "Block a user", access: .signedIn, answer: json(BlockAnswer.self)),
            Op(method: "DELETE", pattern: "/v1/users/{user_id}/block", summary: "Unblock a user", access: .signedIn, answer: json(BlockAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/reports", summary: "Report a user, post or comment", access: .signedIn,
                body: .json(.of(ReportRequest.self)), answer: json(ReportAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/users/attendance", summary: "Attend today (once per day, Asia/Seoul)", access: .signedIn,
                answer: json(AttendanceAnswer.self)),
            // §2
            Op(
                method: "POST", pattern: "/v1/filters/files", summary: "Upload a filter's images", access: .signedIn, body: upload,
                answer: json(FilesAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/filters", summary: "Publish a filter", access: .signedIn, body: .json(.of(FilterRequest.self)),
                answer: json(FilterDetail.self)),
            Op(
                method: "GET", pattern: "/v1/filters", summary: "Filters, newest, most liked or most bought first", access: .signedIn,
                query: filterList + [P("order_by", .enumeration(["latest", "likes", "purchase"]))], answer: json(CursorPage<FilterSummary>.self)),
            Op(method: "GET", pattern: "/v1/filters/{filter_id}", summary: "A filter", access: .signedIn, answer: json(FilterDetail.self)),
            Op(
                method: "PUT", pattern: "/v1/filters/{filter_id}", summary: "Edit one's filter", access: .signedIn,
                body: .json(.of(FilterRequest.self)), answer: json(FilterDetail.self)),
            Op(method: "DELETE", pattern: "/v1/filters/{filter_id}", summary: "Remove one's filter", access: .signedIn, answer: empty),
            Op(
                method: "POST", pattern: "/v1/filters/{filter_id}/like", summary: "Like or unlike a filter", access: .signedIn,
                body: .json(.of(LikeStatus.self)), answer: json(LikeStatus.self)),
            Op(
                method: "GET", pattern: "/v1/filters/users/{user_id}", summary: "A user's filters", access: .signedIn, query: filterList,
                answer: json(CursorPage<FilterSummary>.self)),
            Op(
                method: "GET", pattern: "/v1/filters/likes/me", summary: "Filters one likes", access: .signedIn, query: filterList,
                answer: json(CursorPage<FilterSummary>.self)),
            Op(
                method: "GET", pattern: "/v1/filters/hot-trend", summary: "Filters by recent likes and purchases", access: .signedIn,
                answer: json(DataList<FilterSummary>.self)),
            Op(
                method: "GET", pattern: "/v1/filters/today-filter", summary: "Today's filter", access: .signedIn, answer: json(TodayFilterAnswer.self)
            ),
            Op(
                method: "GET", pattern: "/v1/users/today-author", summary: "Today's author and their filters", access: .signedIn,
                answer: json(TodayAuthorAnswer.self)),
            Op(method: "GET", pattern: "/v1/banners/main", summary: "The main banners", access: .signedIn, answer: json(DataList<Banner>.self)),
            Op(
                method: "POST", pattern: "/v1/posts/files", summary: "Upload a post's images", access: .signedIn, body: upload,
                answer: json(FilesAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/posts", summary: "Write a post", access: .signedIn, body: .json(.of(PostFields.self)),
                answer: json(PostAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/posts", summary: "The feed, newest first", access: .signedIn, query: postFeed,
                answer: json(CursorPage<PostAnswer>.self)),
            Op(method: "GET", pattern: "/v1/posts/{post_id}", summary: "A post", access: .signedIn, answer: json(PostAnswer.self)),
            Op(
                method: "PUT", pattern: "/v1/posts/{post_id}", summary: "Edit one's post", access: .signedIn,
                body: .json(.of(PostFields.self)), answer: json(PostAnswer.self)),
            Op(method: "DELETE", pattern: "/v1/posts/{post_id}", summary: "Remove one's post", access: .signedIn, answer: empty),
            Op(
                method: "GET", pattern: "/v1/posts/users/{user_id}", summary: "A user's posts", access: .signedIn, query: postFeed,
                answer: json(CursorPage<PostAnswer>.self)),
            Op(
                method: "GET", pattern: "/v1/posts/likes/me", summary: "Posts one likes", access: .signedIn, query: postFeed,
                answer: json(CursorPage<PostAnswer>.self)),
            Op(
                method: "GET", pattern: "/v1/posts/likes-2/me", summary: "Posts one marked with the second like", access: .signedIn, query: postFeed,
                answer: json(CursorPage<PostAnswer>.self)),
            Op(
                method: "GET", pattern: "/v1/posts/hashtags", summary: "Posts with a hashtag", access: .signedIn,
                query: postFeed + [P("hashTag", .string, required: true)], answer: json(CursorPage<PostAnswer>.self)),
            Op(
                method: "GET", pattern: "/v1/posts/search", summary: "Posts by title", access: .signedIn, query: [P("title", .string)],
                answer: json(DataList<PostAnswer>.self)),
            Op(
                method: "POST", pattern: "/v1/posts/{post_id}/like", summary: "Like or unlike a post", access: .signedIn,
                body: .json(.of(LikeStatus.self)), answer: json(LikeStatus.self)),
            Op(
                method: "POST", pattern: "/v1/posts/{post_id}/like-2", summary: "Set or clear a post's second like", access: .signedIn,
                body: .json(.of(LikeStatus.self)), answer: json(LikeStatus.self)),
            Op(
                method: "POST", pattern: "/v1/orders", summary: "Order a filter", access: .signedIn, body: .json(.of(OrderRequest.self)),
                answer: json(OrderAnswer.self)),
            Op(method: "GET", pattern: "/v1/orders", summary: "One's paid orders", access: .signedIn, answer: json(DataList<PaidOrderItem>.self)),
            // §3
            Op(
                method: "POST", pattern: "/v1/chats", summary: "The room with a user (the same one every time)", access: .signedIn,
                body: .json(.of(OpenRoomRequest.self)), answer: json(ChatRoomAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/chats", summary: "One's rooms, newest activity first", access: .signedIn,
                answer: json(DataList<ChatRoomAnswer>.self)),
            Op(
                method: "GET", pattern: "/v1/chats/unreads", summary: "Unread counts per room", access: .signedIn,
                answer: json(DataList<RoomUnreadCount>.self)),
            Op(
                method: "GET", pattern: "/v1/chats/{room_id}", summary: "A room's messages after cursor_date, oldest first", access: .signedIn,
                query: [P("cursor_date", .string), P("limit", .integer)], answer: json(DataList<ChatAnswer>.self)),
            Op(
                method: "POST", pattern: "/v1/chats/{room_id}", summary: "Send a message", access: .signedIn,
                body: .json(.of(SendChatRequest.self)), answer: json(ChatAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/chats/{room_id}/files", summary: "Upload a message's files", access: .signedIn, body: upload,
                answer: json(FilesAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/chats/{room_id}/search", summary: "Search a room's messages (Korean included)", access: .signedIn,
                query: [P("q", .string), P("limit", .integer)], answer: json(DataList<ChatAnswer>.self)),
            Op(
                method: "PUT", pattern: "/v1/chats/{room_id}/read", summary: "Mark read up to a message", access: .signedIn,
                body: .json(.of(ReadPointerRequest.self)), answer: json(UnreadCountAnswer.self)),
            // §4
            Op(
                method: "GET", pattern: "/v1/posts/geolocation", summary: "Posts near a point, each with its distance", access: .signedIn,
                query: coordinates + [
                    P("maxDistance", .number), P("category", .array(.string)), P("order_by", .enumeration(["distance", "createdAt"])),
                    P("sort_by", .enumeration(["asc", "desc"])),
                ], answer: json(DataList<PostAnswer>.self)),
            Op(
                method: "GET", pattern: "/v1/geo/reverse", summary: "The Korean administrative area of a point", access: .signedIn,
                query: coordinates, answer: json(ReverseGeocodeAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/walks", summary: "Record a walk", access: .signedIn, body: .json(.of(WalkRequest.self)),
                answer: json(WalkAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/walks", summary: "One's walks", access: .signedIn, query: cursor,
                answer: json(CursorPage<WalkAnswer>.self)),
            Op(method: "GET", pattern: "/v1/walks/{walk_id}", summary: "A walk", access: .signedIn, answer: json(WalkAnswer.self)),
            // §5
            Op(
                method: "POST", pattern: "/v1/payments/validation", summary: "Verify a payment at the PG and complete its order", access: .signedIn,
                body: .json(.of(PaymentValidationRequest.self)), answer: json(PaymentValidationAnswer.self)),
            Op(
                method: "GET", pattern: "/v1/payments/me", summary: "One's payment receipts", access: .signedIn,
                answer: json(DataList<PaymentReceipt>.self)),
            Op(
                method: "GET", pattern: "/v1/payments/{id}", summary: "A receipt by order code, imp_uid or filter id", access: .signedIn,
                answer: json(PaymentReceipt.self)),
            Op(
                method: "POST", pattern: "/v1/payments/webhook", summary: "PortOne's webhook (the payment is re-fetched from the PG)", access: .open,
                query: [P("secret", .string)], body: .json(.of(PaymentWebhook.self)), answer: empty),
            // §6
            Op(
                method: "PUT", pattern: "/v1/users/deviceToken", summary: "Register (or with \"\" clear) one's push token", access: .signedIn,
                body: .json(.of(DeviceTokenRequest.self)), answer: empty),
            Op(
                method: "POST", pattern: "/v1/notifications/push", summary: "Push to a user", access: .signedIn,
                body: .json(.of(PushRequest.self)), answer: json(NotificationAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/notifications/push/group", summary: "Push to several users", access: .signedIn,
                body: .json(.of(PushRequest.self)), answer: json(NotificationAnswer.self)),
            // §7
            Op(method: "GET", pattern: "/event-application", summary: "The attendance page", access: .open, answer: .page),
        ]
        for (item, parameter) in [("filters", "filter_id"), ("posts", "post_id")] {
            let comments = "/v1/\(item)/{\(parameter)}/comments"
            operations += [
                Op(
                    method: "POST", pattern: comments, summary: "Comment, or reply with parent_comment_id", access: .signedIn,
                    body: .json(.of(CommentRequest.self)), answer: json(CommentAnswer.self)),
                Op(
                    method: "PUT", pattern: comments + "/{comment_id}", summary: "Edit one's comment", access: .signedIn,
                    body: .json(.of(CommentRequest.self)), answer: json(CommentAnswer.self)),
                Op(method: "DELETE", pattern: comments + "/{comment_id}", summary: "Remove one's comment", access: .signedIn, answer: empty),
            ]
        }
        operations += CommonOperations.socketIO
        operations += ["profiles", "filters", "posts", "chats"].flatMap { CommonOperations.files(under: "/v1/data/" + $0) }
        return operations
    }()
}
