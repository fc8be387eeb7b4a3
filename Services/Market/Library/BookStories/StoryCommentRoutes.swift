import Contracts
import Hummingbird
import ServiceKit

/// API.md §9 `/bookstoriesComments…`. `{id}` is a comment for PUT and DELETE, a story for GET.
struct StoryCommentRoutes: Sendable {
    let comments: StoryCommentService
    let readers: ReaderResolver

    func register(on guest: ServiceApplication.Group) {
        guest.post("/bookstoriesComments") { request, context -> Response in
            let reader = try await readers.signedIn(context)
            let fields = try await request.decode(as: StoryCommentFields.self, context: context)
            return JSONCoding.response(status: .created, body: Envelope(message: "댓글이 작성되었습니다.", data: try await comments.create(fields, by: reader)))
        }
        guest.put("/bookstoriesComments/{id}") { request, context -> Envelope<QuotehubComment> in
            let reader = try await readers.signedIn(context)
            let fields = try await request.decode(as: StoryCommentFields.self, context: context)
            return Envelope(
                message: "댓글이 수정되었습니다.",
                data: try await comments.change(try context.parameters.require("id"), content: fields.content ?? "", by: reader))
        }
        guest.delete("/bookstoriesComments/{id}") { _, context -> Envelope<NoPayload> in
            _ = try await comments.change(try context.parameters.require("id"), content: nil, by: try await readers.signedIn(context))
            return Envelope(message: "댓글이 삭제되었습니다.", data: nil)
        }
        guest.get("/bookstoriesComments/count/{id}") { _, context -> Envelope<Int> in
            Envelope(
                message: "댓글 수입니다.",
                data: try await comments.count(storyID: try context.parameters.require("id"), for: try await readers.reader(context)))
        }
        guest.get("/bookstoriesComments/{id}") { request, context -> PageEnvelope<QuotehubComment> in
            let reader = try await readers.reader(context)
            return try await comments.list(storyID: try context.parameters.require("id"), page: try PageRequest.parse(request), for: reader)
        }
    }
}
