import Contracts

/// API.md §8, route by route, for the `slp` document (Freeworkers-style apps): their sign-in,
/// workspaces, channels, DMs and coins, plus the sockets and files they use.
package enum SlpCatalogue {
    package static let operations: [DocumentedOperation] = {
        typealias Op = DocumentedOperation
        func json<T: Decodable & Sendable>(_ type: T.Type) -> Op.Answer { .json(.of(T.self)) }
        let empty = json(EmptyAnswer.self)
        let workspace = "/v1/workspaces/{wid}"
        let channel = workspace + "/channels/{cid}"
        let room = workspace + "/dms/{room}"
        let since = [Op.Parameter("cursor_date", .string)]
        let after = [Op.Parameter("after", .string)]
        let message = Op.Body.jsonOrMultipart(.of(ContentRequest.self), files: "files")
        var operations: [Op] = [
            Op(
                method: "POST", pattern: "/v1/users/join", summary: "Join with email and password (with the sign-up coins)", access: .open,
                body: .json(.of(SlpJoinRequest.self)), answer: json(SlpAuthOut.self)),
            Op(
                method: "POST", pattern: "/v1/users/validation/email", summary: "Whether an email is free to join with", access: .open,
                body: .json(.of(EmailValidationRequest.self)), answer: empty),
            Op(
                method: "POST", pattern: "/v1/users/login", summary: "Sign in with email and password", access: .open,
                body: .json(.of(LoginRequest.self)), answer: json(SlpAuthOut.self)),
            Op(
                method: "POST", pattern: "/v1/users/login/apple", summary: "Sign in with an Apple identity token", access: .open,
                body: .json(.of(SlpAppleLoginRequest.self)), answer: json(SlpAuthOut.self)),
            Op(
                method: "GET", pattern: "/v1/auth/refresh",
                summary: "A new access token: the expired one in Authorization, the refresh token (not rotated) in RefreshToken",
                access: .signedIn, headers: [Op.Parameter("RefreshToken", .string)], answer: json(SlpAccessToken.self)),
            Op(method: "GET", pattern: "/v1/users/me", summary: "One's account with the coin balance", access: .signedIn, answer: json(SlpMe.self)),
            Op(
                method: "PUT", pattern: "/v1/users/me", summary: "Change one's nickname or phone", access: .signedIn,
                body: .json(.of(SlpMeUpdate.self)), answer: json(SlpMe.self)),
            Op(
                method: "PUT", pattern: "/v1/users/me/image", summary: "Change one's picture", access: .signedIn,
                body: .multipart(fields: [], files: "image", filesRequired: true), answer: json(SlpMe.self)),
            Op(method: "GET", pattern: "/v1/users/{user_id}", summary: "A user", access: .signedIn, answer: json(SlpUser.self)),
            Op(
                method: "GET", pattern: "/v1/workspaces", summary: "The workspaces one belongs to", access: .signedIn,
                answer: json([WorkspaceAnswer].self)),
            Op(
                method: "POST", pattern: "/v1/workspaces", summary: "Make a workspace (costs coins; makes its default channel)", access: .signedIn,
                body: .multipart(fields: ["name", "description"], files: "image", filesRequired: true), answer: json(WorkspaceAnswer.self)),
            Op(
                method: "GET", pattern: workspace, summary: "A workspace with its channels and members", access: .signedIn,
                answer: json(WorkspaceDetail.self)),
            Op(
                method: "PUT", pattern: workspace, summary: "Edit one's workspace (file part `image`)", access: .signedIn,
                body: .jsonOrMultipart(.of(NameDescriptionRequest.self), files: "image"), answer: json(WorkspaceAnswer.self)),
            Op(method: "DELETE", pattern: workspace, summary: "Remove one's workspace", access: .signedIn, answer: empty),
            Op(method: "GET", pattern: workspace + "/members", summary: "Its members", access: .signedIn, answer: json([SlpUser].self)),
            Op(
                method: "POST", pattern: workspace + "/members", summary: "Invite a user by email", access: .signedIn,
                body: .json(.of(InviteRequest.self)), answer: json(SlpUser.self)),
            Op(method: "GET", pattern: workspace + "/members/{user_id}", summary: "A member", access: .signedIn, answer: json(SlpUser.self)),
            Op(
                method: "PUT", pattern: workspace + "/transfer/ownership", summary: "Hand the workspace to a member", access: .signedIn,
                body: .json(.of(OwnershipRequest.self)), answer: json(WorkspaceAnswer.self)),
            Op(
                method: "GET", pattern: workspace + "/exit", summary: "Leave the workspace (a GET); the ones one is still in", access: .signedIn,
                answer: json([WorkspaceAnswer].self)),
            Op(method: "GET", pattern: workspace + "/channels", summary: "Its channels", access: .signedIn, answer: json([ChannelAnswer].self)),
            Op(
                method: "POST", pattern: workspace + "/channels", summary: "Make a channel", access: .signedIn,
                body: .json(.of(NameDescriptionRequest.self)), answer: json(ChannelAnswer.self)),
            Op(
                method: "GET", pattern: workspace + "/my-channels", summary: "The channels one is in", access: .signedIn,
                answer: json([ChannelAnswer].self)),
            Op(method: "GET", pattern: channel, summary: "A channel with its members", access: .signedIn, answer: json(ChannelDetail.self)),
            Op(
                method: "PUT", pattern: channel, summary: "Edit a channel", access: .signedIn,
                body: .json(.of(NameDescriptionRequest.self)), answer: json(ChannelAnswer.self)),
            Op(method: "DELETE", pattern: channel, summary: "Remove a channel", access: .signedIn, answer: empty),
            Op(
                method: "GET", pattern: channel + "/exit", summary: "Leave a channel (a GET); the ones one is still in", access: .signedIn,
                answer: json([ChannelAnswer].self)),
            Op(
                method: "GET", pattern: channel + "/chats", summary: "A channel's messages after cursor_date, oldest first", access: .signedIn,
                query: since, answer: json([ChannelChatAnswer].self)),
            Op(
                method: "POST", pattern: channel + "/chats", summary: "Send to a channel", access: .signedIn, body: message,
                answer: json(ChannelChatAnswer.self)),
            Op(
                method: "GET", pattern: channel + "/unreads", summary: "Others' messages after `after`", access: .signedIn, query: after,
                answer: json(UnreadsAnswer.self)),
            Op(method: "GET", pattern: workspace + "/dms", summary: "One's DM rooms", access: .signedIn, answer: json([DMRoomAnswer].self)),
            Op(
                method: "POST", pattern: workspace + "/dms", summary: "The DM room with a member (the same one every time)", access: .signedIn,
                body: .json(.of(OpenRoomRequest.self)), answer: json(DMRoomAnswer.self)),
            Op(
                method: "GET", pattern: room + "/chats", summary: "A DM room's messages after cursor_date, oldest first", access: .signedIn,
                query: since, answer: json([DMChatAnswer].self)),
            Op(method: "POST", pattern: room + "/chats", summary: "Send a DM", access: .signedIn, body: message, answer: json(DMChatAnswer.self)),
            Op(
                method: "GET", pattern: room + "/unreads", summary: "Others' DMs after `after`", access: .signedIn, query: after,
                answer: json(UnreadsAnswer.self)),
            Op(
                method: "POST", pattern: "/v1/store/pay/validation", summary: "Verify a coin purchase at the PG and grant the coins",
                access: .signedIn,
                body: .json(.of(PaymentValidationRequest.self)), answer: json(CoinPurchaseAnswer.self)),
            Op(method: "GET", pattern: "/v1/store/item/list", summary: "The coin price list", access: .signedIn, answer: json([StoreItem].self)),
        ]
        operations += CommonOperations.socketIO
        operations += ["profiles", "workspaces"].flatMap { CommonOperations.files(under: "/v1/data/" + $0) }
        return operations
    }()
}
