import Contracts

/// API.md §9, route by route (mount-relative), for the `quotehub` document.
package enum QuotehubCatalogue {
    package static let operations: [DocumentedOperation] = {
        typealias Op = DocumentedOperation
        let page = [Op.Parameter("page", .integer), Op.Parameter("pageSize", .integer)]
        let keyword = page + [Op.Parameter("keyword", .string, required: true)]
        func one<T: Codable & Sendable>(_ type: T.Type) -> Op.Answer { .json(.of(Envelope<T>.self)) }
        func list<T: Codable & Sendable>(_ type: T.Type) -> Op.Answer { .json(.of(PageEnvelope<T>.self)) }
        let none = Op.Answer.json(.of(Envelope<NoPayload>.self))
        var operations: [Op] = [
            Op(
                method: "POST", pattern: "/auth/apple/callback", summary: "Sign in with an Apple authorization code", access: .open,
                body: .json(.of(AppleCodeRequest.self)), answer: one(AppleSignInAnswer.self)),
            Op(
                method: "POST", pattern: "/auth/renew-token", summary: "A new access token (the refresh token as Bearer)", access: .open,
                answer: one(SlpAccessToken.self)),
            Op(
                method: "POST", pattern: "/auth/validate-token",
                summary: "Check the access token; a rotated pair when only the refresh token (x-refresh-token) is good",
                access: .open, answer: one(TokenValidation.self)),
            Op(
                method: "POST", pattern: "/auth/revoke", summary: "Delete the account and its content; revoke the Apple grant", access: .signedIn,
                answer: one(AccountRevocation.self)),
            Op(
                method: "GET", pattern: "/auth/generate-nickname", summary: "A free, readable nickname", access: .open,
                answer: one(GeneratedNickname.self)),
            Op(
                method: "GET", pattern: "/auth/check-nickname", summary: "Whether a nickname is free", access: .guest,
                query: [Op.Parameter("nickname", .string, required: true)], answer: one(NicknameAvailability.self)),
            Op(
                method: "PUT", pattern: "/auth/change-nickname", summary: "Change one's nickname (2–12, unique)", access: .signedIn,
                body: .json(.of(GeneratedNickname.self)), answer: one(QuotehubUser.self)),
            Op(
                method: "GET", pattern: "/profile", summary: "One's own profile with the blocked users", access: .signedIn,
                answer: one(QuotehubUser.self)),
            Op(
                method: "PUT", pattern: "/profile", summary: "Edit one's profile", access: .signedIn,
                body: .jsonOrMultipart(.of(ProfileEdit.self), files: "profileImage"),
                answer: one(QuotehubUser.self)),
            Op(method: "GET", pattern: "/profile/{user_id}", summary: "Another reader's profile", access: .guest, answer: one(QuotehubUser.self)),
            Op(
                method: "GET", pattern: "/user/search/{nickname}", summary: "Readers whose nickname contains the text", access: .signedIn,
                answer: one([QuotehubUser].self)),
            Op(
                method: "POST", pattern: "/block-report/block", summary: "Block a reader", access: .signedIn, body: .json(.of(BlockTarget.self)),
                answer: none),
            Op(
                method: "POST", pattern: "/block-report/unblock", summary: "Unblock a reader", access: .signedIn, body: .json(.of(BlockTarget.self)),
                answer: none),
            Op(
                method: "POST", pattern: "/block-report/report", summary: "Report a reader or a story", access: .signedIn,
                body: .json(.of(ReportTarget.self)), answer: none),
            Op(
                method: "POST", pattern: "/block-report/cancel-report", summary: "Withdraw a report", access: .signedIn,
                body: .json(.of(ReportTarget.self)), answer: none),
            Op(
                method: "GET", pattern: "/block-report/blocked-users", summary: "Whom one blocked", access: .signedIn,
                answer: one([QuotehubUser].self)),
            Op(method: "GET", pattern: "/block-report/reports", summary: "One's reports", access: .signedIn, answer: one([QuotehubReport].self)),
            Op(
                method: "GET", pattern: "/book/search", summary: "Kakao's book search; every book stored with an _id", access: .guest,
                query: [Op.Parameter("query", .string, required: true), Op.Parameter("page", .integer)],
                answer: one(BookSearchAnswer.self)),
            Op(method: "GET", pattern: "/book/todayBooks", summary: "Today's ten books", access: .guest, answer: one([QuotehubBook].self)),
            Op(
                method: "POST", pattern: "/bookstories/createBookStory", summary: "Write a story", access: .signedIn,
                body: .jsonOrMultipart(.of(StoryFields.self), files: "storyImage"), answer: one(QuotehubStory.self), status: 201),
            Op(
                method: "PUT", pattern: "/bookstories/update/{id}", summary: "Edit one's story", access: .signedIn,
                body: .jsonOrMultipart(.of(StoryFields.self), files: "storyImage"), answer: one(QuotehubStory.self)),
            Op(method: "DELETE", pattern: "/bookstories/delete/{id}", summary: "Remove one's story", access: .signedIn, answer: none),
            Op(method: "GET", pattern: "/bookstories/{id}", summary: "A story", access: .guest, answer: one(QuotehubStory.self)),
            Op(method: "GET", pattern: "/bookstories/count", summary: "How many stories one has", access: .signedIn, answer: one(Int.self)),
            Op(
                method: "GET", pattern: "/bookstories/count/{user_id}", summary: "How many public stories a reader has", access: .guest,
                answer: one(Int.self)),
            Op(
                method: "POST", pattern: "/folder/create", summary: "Make a theme", access: .signedIn,
                body: .jsonOrMultipart(.of(ThemeFields.self), files: "folderImage"), answer: one(QuotehubTheme.self), status: 201),
            Op(
                method: "PUT", pattern: "/folder/update/{id}", summary: "Edit one's theme", access: .signedIn,
                body: .jsonOrMultipart(.of(ThemeFields.self), files: "folderImage"), answer: one(QuotehubTheme.self)),
            Op(method: "DELETE", pattern: "/folder/delete/{id}", summary: "Remove one's theme (its stories stay)", access: .signedIn, answer: none),
            Op(method: "GET", pattern: "/folder/{id}", summary: "A theme", access: .guest, answer: one(QuotehubTheme.self)),
            Op(
                method: "POST", pattern: "/bookstoriesComments", summary: "Comment on a story, or reply to a comment", access: .signedIn,
                body: .json(.of(StoryCommentFields.self)), answer: one(QuotehubComment.self), status: 201),
            Op(
                method: "PUT", pattern: "/bookstoriesComments/{id}", summary: "Edit one's comment", access: .signedIn,
                body: .json(.of(StoryCommentFields.self)), answer: one(QuotehubComment.self)),
            Op(
                method: "DELETE", pattern: "/bookstoriesComments/{id}", summary: "Remove one's comment and its replies", access: .signedIn,
                answer: none),
            Op(
                method: "GET", pattern: "/bookstoriesComments/{id}", summary: "A story's comments with their first replies", access: .guest,
                query: page, answer: list(QuotehubComment.self)),
            Op(
                method: "GET", pattern: "/bookstoriesComments/count/{id}", summary: "How many comments a story has", access: .guest,
                answer: one(Int.self)),
        ]
        let storyLists: [(String, String, Op.Access, Bool)] = [
            ("/bookstories/public", "Public stories, newest first", .guest, false),
            ("/bookstories/friend/{user_id}", "A reader's public stories", .guest, false),
            ("/bookstories/my", "One's own stories", .signedIn, false),
            ("/bookstories/public/search", "Public stories with the keyword", .guest, true),
            ("/bookstories/friend/search/{user_id}", "A reader's public stories with the keyword", .guest, true),
            ("/bookstories/my/search", "One's stories with the keyword", .signedIn, true),
            ("/folder/public/{id}", "The stories of a public theme", .guest, false),
            ("/folder/friend/{user_id}/{id}", "The stories of a reader's theme", .guest, false),
            ("/folder/my/{id}", "The stories of one's theme", .signedIn, false),
        ]
        for (pattern, summary, access, search) in storyLists {
            operations.append(
                Op(
                    method: "GET", pattern: pattern, summary: summary, access: access, query: search ? keyword : page,
                    answer: list(QuotehubStory.self)))
        }
        for (pattern, summary, access) in [
            ("/folder/all", "Public themes", Op.Access.guest), ("/folder/user/{user_id}", "A reader's public themes", .guest),
            ("/folder/myfolder", "One's themes", .signedIn),
        ] {
            operations.append(Op(method: "GET", pattern: pattern, summary: summary, access: access, query: page, answer: list(QuotehubTheme.self)))
        }
        operations += ["profiles", "bookstories", "folders"].flatMap { CommonOperations.files(under: "/files/" + $0) }
        return operations
    }()
}
