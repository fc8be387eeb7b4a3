import Contracts
import FileStorage
import Hummingbird
import ServiceKit

/// API.md §9 `/folder/…`: themes and the stories in them.
struct ThemeRoutes: Sendable {
    let themes: ThemeService
    let images: FileStore
    let readers: ReaderResolver

    func register(on guest: ServiceApplication.Group) {
        func list(_ path: RouterPath, signedIn: Bool, _ scope: @escaping @Sendable (GlintRequestContext, Reader) throws -> StoryQuery.Scope) {
            guest.get(path) { request, context -> PageEnvelope<QuotehubTheme> in
                let reader = signedIn ? try await readers.signedIn(context) : try await readers.reader(context)
                return try await themes.list(try scope(context, reader), page: try PageRequest.parse(request), for: reader)
            }
        }
        func stories(_ path: RouterPath, signedIn: Bool, author: @escaping @Sendable (GlintRequestContext, Reader) throws -> String?) {
            guest.get(path) { request, context -> PageEnvelope<QuotehubStory> in
                let reader = signedIn ? try await readers.signedIn(context) : try await readers.reader(context)
                return try await themes.stories(
                    in: try context.parameters.require("id"), author: try author(context, reader),
                    page: try PageRequest.parse(request), for: reader)
            }
        }

        images.registerServing(on: guest, prefix: "/files")
        guest.post("/folder/create") { request, context -> Response in
            let reader = try await readers.signedIn(context)
            let (fields, files) = try await Self.fields(request, context)
            return JSONCoding.response(
                status: .created, body: Envelope(message: "테마가 생성되었습니다.", data: try await themes.create(fields, image: files, by: reader)))
        }
        guest.put("/folder/update/{id}") { request, context -> Envelope<QuotehubTheme> in
            let reader = try await readers.signedIn(context)
            let (fields, files) = try await Self.fields(request, context)
            return Envelope(
                message: "테마가 수정되었습니다.", data: try await themes.update(try context.parameters.require("id"), fields, image: files, by: reader))
        }
        guest.delete("/folder/delete/{id}") { _, context -> Envelope<NoPayload> in
            try await themes.delete(try context.parameters.require("id"), by: try await readers.signedIn(context))
            return Envelope(message: "테마가 삭제되었습니다.", data: nil)
        }
        list("/folder/all", signedIn: false) { _, _ in .everyone }
        list("/folder/user/{user_id}", signedIn: false) { context, _ in .author(try context.parameters.require("user_id"), privateToo: false) }
        list("/folder/myfolder", signedIn: true) { _, reader in .author(try reader.requireUser(), privateToo: true) }
        stories("/folder/public/{id}", signedIn: false) { _, _ in nil }
        stories("/folder/friend/{user_id}/{id}", signedIn: false) { context, _ in try context.parameters.require("user_id") }
        stories("/folder/my/{id}", signedIn: true) { _, reader in try reader.requireUser() }
        guest.get("/folder/{id}") { _, context -> Envelope<QuotehubTheme> in
            Envelope(
                message: "테마를 불러왔습니다.", data: try await themes.read(try context.parameters.require("id"), for: try await readers.reader(context)))
        }
    }

    /// The JSON body, or the multipart form's fields and its `folderImage` file.
    private static func fields(_ request: Request, _ context: GlintRequestContext) async throws -> (ThemeFields, [MultipartForm.Part]) {
        try await QuotehubForm.read(request, context: context, files: "folderImage") { form in
            ThemeFields(name: form.text("name"), description: form.text("description"), isPublic: try form.bool("isPublic"))
        }
    }
}
