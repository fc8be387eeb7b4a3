import Contracts
import Foundation
import OpenAPIKit

/// The OpenAPI 3.1 document of a profile, built from its catalogue of operations and the
/// Contracts types they name.
package enum APIDocument {
    package static func operations(for profile: Dialect) -> [DocumentedOperation] {
        switch profile {
        case .lslp: LslpCatalogue.operations
        case .slp: SlpCatalogue.operations
        case .quotehub: QuotehubCatalogue.operations
        }
    }

    /// What a client of the profile receives in place of an answer when a call fails (API.md
    /// §0, §8, §9): `{message}` with the status, `400 {errorCode}`, or the envelope.
    package static func errorAnswer(for profile: Dialect) -> WireType {
        switch profile {
        case .lslp: .of(MessageAnswer.self)
        case .slp: .of(SlpErrorAnswer.self)
        case .quotehub: .of(Envelope<NoPayload>.self)
        }
    }

    package static func build(_ profile: Dialect) throws -> OpenAPI.Document {
        try build(
            operations(for: profile), title: "Glint Backend: \(profile.rawValue) apps", errorAnswer: errorAnswer(for: profile),
            security: DocumentSecurity(profile: profile))
    }

    /// `/openapi/admin.json`: the operators' API (issue 35), whose errors are `{message}` with
    /// the status, as the gateway renders them for no app.
    package static func buildAdmin() throws -> OpenAPI.Document {
        try build(
            AdminCatalogue.operations, title: "Glint Backend: operators' admin API", errorAnswer: .of(MessageAnswer.self),
            security: DocumentSecurity(profile: nil))
    }

    private static func build(
        _ operations: [DocumentedOperation], title: String, errorAnswer wire: WireType, security: DocumentSecurity
    ) throws
        -> OpenAPI.Document
    {
        var components = SchemaComponents()
        var paths: OrderedDictionary<OpenAPI.Path, OpenAPI.PathItem> = [:]
        let errorAnswer = components.schema(try wire.schema())
        let keyRefusal = OpenAPI.Response(
            description: "SeSACKey missing or unknown",
            content: [.json: .content(.init(schema: components.schema(try WireSchema.of(MessageAnswer.self))))])
        for operation in operations {
            let (path, pathParameters) = Self.path(operation.documentedPath)
            var item = paths[path] ?? OpenAPI.PathItem(parameters: pathParameters.map { .parameter(.path(name: $0, schema: JSONSchema.string)) })
            var built = try Self.operation(operation, in: operations, errorAnswer: errorAnswer, components: &components)
            built.security = security.requirements(operation)
            if security.checksKey(operation) { built.responses[420] = .response(keyRefusal) }
            switch operation.method {
            case "GET": item.get = built
            case "HEAD": item.head = built
            case "POST": item.post = built
            case "PUT": item.put = built
            case "DELETE": item.delete = built
            default: item.patch = built
            }
            paths[path] = item
        }
        return OpenAPI.Document(
            openAPIVersion: .v3_1_1,
            info: .init(title: title, version: "1.0"),
            servers: [security.server],
            paths: paths.mapValues { .pathItem($0) },
            components: .init(schemas: components.schemas, securitySchemes: security.schemes),
            security: []
        )
    }

    /// `/files/profiles/**` → `/files/profiles/{name}`; `{user_id}` stays a path parameter.
    package static func path(_ pattern: String) -> (OpenAPI.Path, [String]) {
        let segments = pattern.split(separator: "/").map { $0 == "**" ? "{name}" : String($0) }
        let parameters = segments.filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
        let trailing = pattern.count > 1 && pattern.hasSuffix("/") ? "/" : ""
        return (OpenAPI.Path(rawValue: "/" + segments.joined(separator: "/") + trailing), parameters)
    }

    static func operation(
        _ operation: DocumentedOperation, in operations: [DocumentedOperation], errorAnswer: JSONSchema, components: inout SchemaComponents
    ) throws -> OpenAPI.Operation {
        let parameters: OpenAPI.Parameter.Array =
            operation.query.map { query in
                .parameter(.query(name: query.name, required: query.required, schema: components.schema(query.schema)))
            }
            + operation.headers.map { header in
                .parameter(.header(name: header.name, required: header.required, schema: components.schema(header.schema)))
            }
        return OpenAPI.Operation(
            summary: operation.summary, operationId: operation.operationID,
            parameters: parameters, requestBody: try request(operation.body, components: &components),
            responses: [
                OpenAPI.Response.StatusCode(integerLiteral: operation.status): .response(
                    try success(operation.answer, links: try DocumentLinks.links(from: operation, to: operations), components: &components)
                ),
                .default: .response(
                    OpenAPI.Response(description: "an error", content: [.json: .content(.init(schema: errorAnswer))])
                ),
            ]
        )
    }

    private static func request(_ body: DocumentedOperation.Body, components: inout SchemaComponents) throws -> OpenAPI.Request? {
        let file = JSONSchema.string(contentEncoding: .binary)
        switch body {
        case .none:
            return nil
        case .json(let type):
            return OpenAPI.Request(content: [.json: .content(.init(schema: components.schema(try type.schema())))])
        case .jsonOrMultipart(let type, let files):
            let json = components.schema(try type.schema())
            return OpenAPI.Request(content: [
                .json: .content(.init(schema: json)),
                .multipartForm: .content(.init(schema: JSONSchema.object(properties: [files: JSONSchema.array(required: false, items: file)]))),
            ])
        case .multipart(let fields, let files, let filesRequired):
            var properties: OrderedDictionary<String, JSONSchema> = [:]
            for field in fields { properties[field] = JSONSchema.string(required: false) }
            properties[files] = JSONSchema.array(required: filesRequired, items: file)
            return OpenAPI.Request(content: [.multipartForm: .content(.init(schema: JSONSchema.object(properties: properties)))])
        case .text:
            return OpenAPI.Request(content: [.txt: .content(.init(schema: JSONSchema.string))])
        }
    }

    private static func success(
        _ answer: DocumentedOperation.Answer, links: OpenAPI.Link.Map, components: inout SchemaComponents
    ) throws -> OpenAPI.Response {
        switch answer {
        case .json(let type):
            OpenAPI.Response(description: "success", content: [.json: .content(.init(schema: components.schema(try type.schema())))], links: links)
        case .file:
            OpenAPI.Response(description: "the file", content: [.anyImage: .content(.init(schema: JSONSchema.string(contentEncoding: .binary)))])
        case .engineIO:
            OpenAPI.Response(
                description: "Engine.IO v4 packets (the handshake opens a session; see API.md §3)",
                content: [.txt: .content(.init(schema: JSONSchema.string))])
        case .page:
            OpenAPI.Response(description: "the page", content: [.html: .content(.init(schema: JSONSchema.string))])
        }
    }
}
