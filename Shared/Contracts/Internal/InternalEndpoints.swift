/// Every endpoint the services offer each other, by the service that serves it. Service code
/// names an internal path nowhere else.
package enum InternalEndpoints {
    package enum Auth {
        /// The app of a `SeSACKey` (the gateway, cached there). The key travels in the body, not the URL.
        package static let resolveApp = InternalEndpoint<NoParameter, AppKeyLookup, ResolvedAppKey>(.auth, .post, "/internal/apps/resolve")
        /// The app mounted at a path prefix (the gateway, cached there): apps whose clients send no key.
        package static let resolveMount = InternalEndpoint<NoParameter, AppMountLookup, AppInfo>(.auth, .post, "/internal/apps/by-mount")
        /// Every app (admin-svc, which shows each operator the apps of its role).
        package static let apps = InternalEndpoint<NoParameter, NoBody, [AppInfo]>(.auth, .get, "/internal/apps")
        /// An app by id: chat-svc judges sockets that came without a key by their room's app.
        package static let app = InternalEndpoint<String, NoBody, AppInfo>(.auth, .get, "/internal/apps/{app_id}")
        /// admin-svc: every app's settings (keys by their last characters only).
        package static let appDetails = InternalEndpoint<NoParameter, NoBody, [AppDetail]>(.auth, .get, "/internal/app-details")
        /// admin-svc: registers an app, as the `apps` command does; the answer carries its key.
        package static let createApp = InternalEndpoint<NoParameter, AppRegistration, AppKeyIssued>(.auth, .post, "/internal/app-details")
        /// admin-svc: an app's flags and sign-in providers.
        package static let changeApp = InternalEndpoint<String, AppSettingsChange, AppDetail>(.auth, .post, "/internal/app-details/{app_id}")
        /// admin-svc: a new key; the old one keeps working for the grace asked.
        package static let rotateAppKey = InternalEndpoint<String, KeyRotation, AppKeyIssued>(
            .auth, .post, "/internal/app-details/{app_id}/rotate-key")
        /// admin-svc: disables (or enables again) an app: its keys and mount open nothing.
        package static let disableApp = InternalEndpoint<String, AppDisabling, AppDetail>(.auth, .post, "/internal/app-details/{app_id}/disabled")
        /// Users of the caller's app by id, for `creator`/`sender` fields: one call per page.
        package static let lookupUsers = InternalEndpoint<NoParameter, UserLookupRequest, UserLookupAnswer>(.auth, .post, "/internal/users/lookup")
        /// Users of the caller's app by id as workspace members (API.md §8 **User**, with email).
        package static let lookupMembers = InternalEndpoint<NoParameter, UserLookupRequest, MemberLookupAnswer>(
            .auth, .post, "/internal/members/lookup")
        /// A user of the caller's app by email, as a workspace member; `notFound` when none.
        package static let memberByEmail = InternalEndpoint<NoParameter, EmailLookup, SlpUser>(.auth, .post, "/internal/members/by-email")
        /// Whom a user blocked (their content is hidden from that user).
        package static let blockedUsers = InternalEndpoint<String, NoBody, UserIDList>(.auth, .get, "/internal/users/{user_id}/blocked")
        /// Users and book stories a reader hid by blocks and reports (API.md §9).
        package static let hiddenContent = InternalEndpoint<String, NoBody, HiddenContent>(.auth, .get, "/internal/users/{user_id}/hidden")
        /// Every ban in force, long-polled by each process that verifies tokens (`RevocationWatcher`).
        package static let revocations = InternalEndpoint<NoParameter, RevocationPoll, RevocationSnapshot>(
            .auth, .post, "/internal/revocations/poll")
        /// admin-svc: bans a user of the caller's app (again: the new terms replace the old).
        package static let banUser = InternalEndpoint<String, BanRequest, BanState>(.auth, .post, "/internal/users/{user_id}/ban")
        /// admin-svc: lifts a user's ban; `notFound` when there was none.
        package static let unbanUser = InternalEndpoint<String, NoBody, EmptyAnswer>(.auth, .post, "/internal/users/{user_id}/unban")
        /// admin-svc: how many targets of the caller's app have open reports, and the oldest's age.
        package static let openReports = InternalEndpoint<NoParameter, NoBody, OpenReportsSummary>(.auth, .get, "/internal/reports/open-summary")
        /// admin-svc: the caller's app's reports, grouped by target, oldest first.
        package static let reportQueue = InternalEndpoint<NoParameter, ReportQueueQuery, [ReportGroupAnswer]>(.auth, .post, "/internal/reports/queue")
        /// admin-svc: closes a target's open reports with the action taken.
        package static let closeReports = InternalEndpoint<NoParameter, ReportClosing, ReportsClosed>(.auth, .post, "/internal/reports/close")
        /// admin-svc: users of the caller's app by id, email prefix or nick.
        package static let searchUsers = InternalEndpoint<NoParameter, UserSearchQuery, [OperatorUserSummary]>(
            .auth, .post, "/internal/operators/users/search")
        /// admin-svc: a user's page (profile, sessions, ban, reports by and against).
        package static let userDetail = InternalEndpoint<String, NoBody, OperatorUserDetail>(.auth, .get, "/internal/operators/users/{user_id}")
        /// admin-svc: signs a user out everywhere (sessions revoked, older tokens refused everywhere).
        package static let signOutUser = InternalEndpoint<String, NoBody, SignOutAnswer>(.auth, .post, "/internal/users/{user_id}/sign-out")
        /// admin-svc: deletes an account as its own deletion would (its content through market-svc).
        package static let deleteUser = InternalEndpoint<String, NoBody, EmptyAnswer>(.auth, .post, "/internal/users/{user_id}/delete")
        /// The public keys access tokens are verified with.
        package static let signingKeys = InternalEndpoint<NoParameter, NoBody, PublicKeySet>(.auth, .get, "/.well-known/jwks.json")
    }

    package enum Market {
        /// Ids of a user's public posts (profiles list them).
        package static let postIDs = InternalEndpoint<String, NoBody, UserIDList>(.market, .get, "/internal/users/{user_id}/post-ids")
        /// A revoked account's content removed (auth-svc, before it answers, and its outbox).
        package static let accountRevoked = InternalEndpoint<NoParameter, AccountRevokedEvent, EmptyAnswer>(
            .market, .post, "/internal/accounts/revoked")
        /// auth-svc changed a user (profile, blocks, reports, the account gone): the kept copies of
        /// users and of what readers hid are dropped on every replica.
        package static let usersChanged = InternalEndpoint<String, NoBody, EmptyAnswer>(.market, .post, "/internal/users/{user_id}/changed")
        /// Posts by id as the caller whose token comes along may see them (geo-svc's searches).
        package static let postBatch = InternalEndpoint<NoParameter, PostBatchRequest, DataList<PostAnswer>>(.market, .post, "/internal/posts/batch")
        /// An order by code, within the caller's app or (no app id: a webhook) any.
        package static let order = InternalEndpoint<String, NoBody, OrderRecordAnswer>(.market, .get, "/internal/orders/{order_code}")
        /// Marks an order paid, once.
        package static let orderPaid = InternalEndpoint<String, NoBody, PaidOrderItem>(.market, .post, "/internal/orders/{order_code}/paid")
        /// An order unpaid again: its payment was cancelled at the PG after the grant.
        package static let orderRefunded = InternalEndpoint<String, NoBody, OrderRecordAnswer>(
            .market, .post, "/internal/orders/{order_code}/refunded")
        /// Adds a coin payment to its buyer's wallet, once per payment.
        package static let grantCoins = InternalEndpoint<NoParameter, PaymentGrantEvent, CoinGrantAnswer>(.market, .post, "/internal/wallets/coins")
        /// A user's coins.
        package static let wallet = InternalEndpoint<String, NoBody, CoinBalance>(.market, .get, "/internal/wallets/{user_id}")
        /// Spends a user's coins once per key (`notEnoughCoins` when short, nothing spent); answers the coins left.
        package static let spendCoins = InternalEndpoint<NoParameter, CoinSpend, CoinBalance>(.market, .post, "/internal/wallets/spends")
        /// Gives a spend's coins back, once; a key never spent can no longer be spent afterwards.
        package static let returnSpend = InternalEndpoint<NoParameter, CoinSpendKey, EmptyAnswer>(.market, .post, "/internal/wallets/spends/returned")
        /// Takes a refunded coin payment's coins back, once per payment, never below zero.
        package static let refundCoins = InternalEndpoint<NoParameter, PaymentGrantEvent, CoinRefundAnswer>(
            .market, .post, "/internal/wallets/coins/refunds")
    }

    /// The same three endpoints in market-svc and chat-svc, for the kinds each keeps (`ContentKind.service`).
    package enum Content {
        /// A piece of content of the caller's app, as operators see it (`notFound` when none).
        package static func summary(_ kind: ContentKind) -> InternalEndpoint<ContentRef, NoBody, ContentSummary> {
            InternalEndpoint(kind.service, .get, base(kind))
        }
        /// Hides it from every app user (kept for the audit and an appeal); again is a no-op.
        package static func hide(_ kind: ContentKind) -> InternalEndpoint<ContentRef, ModerationRequest, ContentSummary> {
            InternalEndpoint(kind.service, .post, base(kind) + "/hide")
        }
        /// Shows it again.
        package static func restore(_ kind: ContentKind) -> InternalEndpoint<ContentRef, ModerationRequest, ContentSummary> {
            InternalEndpoint(kind.service, .post, base(kind) + "/restore")
        }

        /// Pieces of one kind by id or by author (`ContentFind`), the way `summary` shows each.
        package static func find(_ kind: ContentKind) -> InternalEndpoint<String, ContentFind, [ContentSummary]> {
            InternalEndpoint(kind.service, .post, "/internal/\(kind.service == .chat ? "chat" : "market")/moderation/{kind}/find")
        }
        /// A chat message with the few before and after it in its room, oldest first, as the room
        /// shows them (the reports queue and the content page show a message in its place).
        package static let around = InternalEndpoint<ContentRef, NoBody, [ContentSummary]>(.chat, .get, base(.message) + "/around")

        /// Each service's own path, so that each endpoint is declared (and served) once.
        private static func base(_ kind: ContentKind) -> String {
            "/internal/\(kind.service == .chat ? "chat" : "market")/moderation/{kind}/{content_id}"
        }
    }

    package enum Chat {
        /// As `Market.usersChanged`, for chat-svc's copies (users, members, blocked lists).
        package static let usersChanged = InternalEndpoint<String, NoBody, EmptyAnswer>(.chat, .post, "/internal/chat/users/{user_id}/changed")
    }

    package enum Geo {
        /// market-svc's outbox: a post's findable location changed.
        package static let postLocation = InternalEndpoint<NoParameter, PostLocationEvent, EmptyAnswer>(.geo, .post, "/internal/post-locations")
    }

    package enum PaymentVerify {
        /// admin-svc: a user's payments in the caller's app, newest first (as the user's own receipts).
        package static let userPayments = InternalEndpoint<String, NoBody, DataList<PaymentReceipt>>(
            .paymentVerify, .get, "/internal/users/{user_id}/payments")
        /// admin-svc: the caller's app's payments, newest first, by user, order or imp_uid.
        package static let searchPayments = InternalEndpoint<NoParameter, PaymentSearch, [OperatorPayment]>(
            .paymentVerify, .post, "/internal/payments/search")
        /// admin-svc: cancels a payment of the caller's app at PortOne and takes its grant back.
        package static let refundPayment = InternalEndpoint<String, PaymentRefundRequest, OperatorPayment>(
            .paymentVerify, .post, "/internal/payments/{imp_uid}/refund")
    }

    package enum Push {
        /// chat-svc's outbox: messages to notify their absent recipients of, as many as its relay
        /// has ready (one call per round, not one per message).
        package static let chatMessages = InternalEndpoint<NoParameter, [ChatMessageEvent], EmptyAnswer>(.push, .post, "/internal/chat-messages")
        /// admin-svc: the devices a user of the caller's app registered, newest first.
        package static let userDevices = InternalEndpoint<String, NoBody, [OperatorDeviceSummary]>(.push, .get, "/internal/users/{user_id}/devices")
        /// admin-svc: the caller's app's deliveries per provider and recent failures.
        package static let stats = InternalEndpoint<NoParameter, PushStatsQuery, PushStats>(.push, .post, "/internal/push/stats")
        /// admin-svc: a test notification to a user's devices of the caller's app.
        package static let testNotification = InternalEndpoint<String, TestPushRequest, TestPushAnswer>(
            .push, .post, "/internal/users/{user_id}/test-notification")
        /// auth-svc's outbox: the device token a join or login came with.
        package static let deviceToken = InternalEndpoint<NoParameter, DeviceTokenEvent, EmptyAnswer>(.push, .post, "/internal/device-tokens")
    }

    /// admin-svc's overview: each service's activity of the caller's app (no app: every app).
    package enum Activity {
        package static let users = InternalEndpoint<NoParameter, ActivityQuery, UserActivity>(.auth, .post, "/internal/activity/users")
        package static let content = InternalEndpoint<NoParameter, ActivityQuery, ContentActivity>(.market, .post, "/internal/activity/content")
        package static let messages = InternalEndpoint<NoParameter, ActivityQuery, MessageActivity>(.chat, .post, "/internal/activity/messages")
        package static let payments = InternalEndpoint<NoParameter, ActivityQuery, PaymentActivity>(
            .paymentVerify, .post, "/internal/activity/payments")
    }

    package enum Gateway {
        /// admin-svc: the requests a gateway replica kept (errors and a sample), newest first.
        package static let requestLog = InternalEndpoint<NoParameter, RequestLogQuery, [RequestLogEntry]>(
            .gateway, .post, "/internal/request-log")
    }

    /// Every process's lines of one request's log (admin-svc follows a request through the
    /// services). The same path on every process, like `/health`, so not in `all`.
    package static func requestLines(_ service: ServiceName) -> InternalEndpoint<String, NoBody, [ServiceLogLine]> {
        InternalEndpoint(service, .get, "/internal/log/{request_id}")
    }

    /// A copy of a service's SQLite file, for a backup that cannot open the file itself (geo-svc's
    /// volume in Kubernetes): a tar of bytes, not JSON, so a path rather than a typed endpoint.
    package static let snapshotPath = "/internal/snapshot"

    package static let all: [InternalEndpointDescription] = [
        Auth.resolveApp.description, Auth.resolveMount.description, Auth.app.description, Auth.lookupUsers.description, Auth.blockedUsers.description,
        Auth.lookupMembers.description, Auth.memberByEmail.description, Auth.hiddenContent.description, Auth.signingKeys.description,
        Auth.apps.description, Auth.revocations.description, Auth.reportQueue.description, Auth.openReports.description,
        Auth.closeReports.description,
        Auth.searchUsers.description, Auth.userDetail.description, Auth.signOutUser.description, Auth.deleteUser.description,
        Auth.banUser.description,
        Auth.unbanUser.description, Auth.appDetails.description, Auth.createApp.description, Auth.changeApp.description,
        Auth.rotateAppKey.description, Auth.disableApp.description,
        Market.postIDs.description, Market.postBatch.description, Market.order.description, Market.orderPaid.description,
        Market.orderRefunded.description, Market.grantCoins.description, Market.refundCoins.description, Market.wallet.description,
        Market.spendCoins.description, Market.returnSpend.description, Market.accountRevoked.description, Market.usersChanged.description,
        Chat.usersChanged.description,
        Content.summary(.post).description, Content.hide(.post).description, Content.restore(.post).description,
        Content.summary(.message).description, Content.hide(.message).description, Content.restore(.message).description,
        Content.find(.post).description, Content.find(.message).description, Content.around.description,
        Geo.postLocation.description, Gateway.requestLog.description, Activity.users.description, Activity.content.description,
        Activity.messages.description, Activity.payments.description,
        PaymentVerify.userPayments.description, PaymentVerify.searchPayments.description, PaymentVerify.refundPayment.description,
        Push.userDevices.description, Push.stats.description, Push.testNotification.description, Push.chatMessages.description,
        Push.deviceToken.description,
    ]
}
