import FileStorage
import Foundation
import Hummingbird
import ServiceKit

/// A §9 create or update body: JSON, or multipart with lists as JSON-encoded strings, booleans
/// as `"true"`/`"false"` and files under one name.
struct QuotehubForm: Sendable {
    let form: MultipartForm?

    static func read<Fields: Decodable>(
        _ request: Request, context: GlintRequestContext, files name: String, fields: (QuotehubForm) throws -> Fields
    ) async throws -> (Fields, [MultipartForm.Part]) {
        guard MultipartForm.isMultipart(request) else { return (try await request.decode(as: Fields.self, context: context), []) }
        let form = try await MultipartForm.read(request, limits: .uploads)
        return (try fields(QuotehubForm(form: form)), form.files(named: name))
    }

    func text(_ name: String) -> String? {
        form?.field(name)
    }

    /// A JSON-encoded list; absent is nil, an empty field the empty list, anything else 400.
    func list<Element: Decodable>(_ name: String) throws -> [Element]? {
        guard let text = text(name) else { return nil }
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
        guard let value = try? JSONDecoder().decode([Element].self, from: Data(text.utf8)) else {
            throw ServiceError.badRequest("\(name) must be a JSON list")
        }
        return value
    }

    func bool(_ name: String) throws -> Bool? {
        switch text(name)?.lowercased() {
        case nil: return nil
        case "true": return true
        case "false": return false
        default: throw ServiceError.badRequest("\(name) must be true or false")
        }
    }
}
