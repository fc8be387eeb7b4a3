import Contracts
import FileStorage
import Hummingbird
import ServiceKit

/// API.md §9 `/bookstories/…`: writes by the signed-in author, reads by guests too.
struct StoryRoutes: Sendable {
    let stories: StoryService
    let images: FileStore
    let readers: ReaderResolver

    func register(on guest: ServiceApplication.Group) {
        func list(
            _ path: RouterPath, signedIn: Bool, search: Bool = false,
            _ scope: @escaping @Sendable (GlintRequestContext, Reader) throws -> StoryQuery.Scope
        ) {
            guest.get(path) { request, context -> PageEnvelope<QuotehubStory> in
                let reader = signedIn ? try await readers.signedIn(context) : try await readers.reader(context)
                let page = try PageRequest.parse(request)
                let keyword =
                    search
                    ? try FieldRule.text(
                        request.uri.queryParameters["keyword"].map(String.init) ?? "", "keyword", 1...50, trimming: .whitespacesAndNewlines) : nil
                return try await stories.list(try scope(context, reader), keyword: keyword, page: page, for: reader)
            }
        }

        images.registerServing(on: guest, prefix: "/files")
        guest.post("/bookstories/createBookStory") { request, context -> Response in
            let reader = try await readers.signedIn(context)
            let (fields, files) = try await Self.fields(request, context, withBook: true)
            return JSONCoding.response(
                status: .created, body: Envelope(message: "스토리가 작성되었습니다.", data: try await stories.create(fields, images: files, by: reader)))
        }
        guest.put("/bookstories/update/{id}") { request, context -> Envelope<QuotehubStory> in
            let reader = try await readers.signedIn(context)
            let (fields, files) = try await Self.fields(request, context, withBook: false)
            return Envelope(
                message: "스토리가 수정되었습니다.", data: try await stories.update(try context.parameters.require("id"), fields, images: files, by: reader))
        }
        guest.delete("/bookstories/delete/{id}") { _, context -> Envelope<NoPayload> in
            try await stories.delete(try context.parameters.require("id"), by: try await readers.signedIn(context))
            return Envelope(message: "스토리가 삭제되었습니다.", data: nil)
        }
        guest.get("/bookstories/count") { _, context -> Envelope<Int> in
            let reader = try await readers.signedIn(context)
            return Envelope(message: "스토리 수입니다.", data: try await stories.count(of: try reader.requireUser(), for: reader))
        }
        guest.get("/bookstories/count/{user_id}") { _, context -> Envelope<Int> in
            Envelope(
                message: "스토리 수입니다.",
                data: try await stories.count(of: try context.parameters.require("user_id"), for: try await readers.reader(context)))
        }
        list("/bookstories/public", signedIn: false) { _, _ in .everyone }
        list("/bookstories/friend/{user_id}", signedIn: false) { context, _ in .author(try Self.userID(context), privateToo: false) }
        list("/bookstories/my", signedIn: true) { _, reader in .author(try reader.requireUser(), privateToo: true) }
        list("/bookstories/public/search", signedIn: false, search: true) { _, _ in .everyone }
        list("/bookstories/friend/search/{user_id}", signedIn: false, search: true) { context, _ in
            .author(try Self.userID(context), privateToo: false)
        }
        list("/bookstories/my/search", signedIn: true, search: true) { _, reader in .author(try reader.requireUser(), privateToo: true) }
        guest.get("/bookstories/{id}") { _, context -> Envelope<QuotehubStory> in
            Envelope(
                message: "스토리를 불러왔습니다.", data: try await stories.read(try context.parameters.require("id"), for: try await readers.reader(context)))
        }
    }

    private static func userID(_ context: GlintRequestContext) throws -> String {
        let id = try context.parameters.require("user_id")
        guard ObjectID.isValid(id) else { throw ServiceError.badRequest("invalid user id") }
        return id
    }

    /// The JSON body, or the multipart form's fields (lists JSON-encoded) and `storyImage` files.
    private static func fields(_ request: Request, _ context: GlintRequestContext, withBook: Bool) async throws -> (StoryFields, [MultipartForm.Part])
    {
        var (fields, files) = try await QuotehubForm.read(request, context: context, files: "storyImage") { form in
            StoryFields(
                bookId: form.text("bookId"), quotes: try form.list("quotes"), isPublic: try form.bool("isPublic"), content: form.text("content"),
                keywords: try form.list("keywords"), folderIds: try form.list("folderIds"))
        }
        if !withBook { fields.bookId = nil }
        return (fields, files)
    }
}
