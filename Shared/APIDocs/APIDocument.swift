import Contracts
import Foundation
import OpenAPIKit

/// The OpenAPI 3.1 document of a profile, built from its catalogue of operations and the
/// Contracts types they name.
package enum APIDocument {
    package static func operations(for profile: Dialect) -> [DocumentedOperation] {
        switch profile {
        case .quotehub: QuotehubCatalogue.operations
        case .lslp, .slp: []
        }
    }

    package static func build(_ profile: Dialect) throws -> OpenAPI.Document {
        var components = SchemaComponents()
        var paths: OrderedDictionary<OpenAPI.Path, OpenAPI.PathItem> = [:]
        let errorAnswer = components.schema(try WireSchema.of(Envelope<NoPayload>.self))
        for operation in operations(for: profile) {
            let (path, pathParameters) = Self.path(operation.pattern)
            var item = paths[path] ?? OpenAPI.PathItem(parameters: pathParameters.map { .parameter(.path(name: $0, schema: JSONSchema.string)) })
            let built = try Self.operation(operation, errorAnswer: errorAnswer, components: &components)
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
            info: .init(title: "Glint Backend: \(profile.rawValue) apps", version: "1.0"),
            servers: [.init(urlTemplate: URLTemplate(rawValue: "/{mount}")!, variables: ["mount": .init(default: "quotehub")])],
            paths: paths.mapValues { .pathItem($0) },
            components: .init(schemas: components.schemas, securitySchemes: ["bearer": .b(OpenAPI.SecurityScheme.http(scheme: "bearer", bearerFormat: "JWT"))]),
            security: []
        )
    }

    /// A guest route takes a token when given: anonymous (the empty requirement) or Bearer.
    static func security(_ access: DocumentedOperation.Access) -> [OpenAPI.SecurityRequirement]? {
        switch access {
        case .open: nil
        case .guest: [[:], [.component(named: "bearer"): []]]
        case .signedIn: [[.component(named: "bearer"): []]]
        }
    }

    /// `/files/profiles/**` → `/files/profiles/{name}`; `{user_id}` stays a path parameter.
    package static func path(_ pattern: String) -> (OpenAPI.Path, [String]) {
        let segments = pattern.split(separator: "/").map { $0 == "**" ? "{name}" : String($0) }
        let parameters = segments.filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
        return (OpenAPI.Path(rawValue: "/" + segments.joined(separator: "/")), parameters)
    }

    static func operation(_ operation: DocumentedOperation, errorAnswer: JSONSchema, components: inout SchemaComponents) throws -> OpenAPI.Operation {
        let parameters: OpenAPI.Parameter.Array = operation.query.map { query in
            .parameter(.query(name: query.name, required: query.required, schema: components.schema(query.schema)))
        }
        var request: OpenAPI.Request?
        switch operation.body {
        case .none: break
        case .json(let type):
            request = OpenAPI.Request(content: [.json: .content(.init(schema: components.schema(try type.schema())))])
        case .jsonOrMultipart(let type, let files):
            let json = components.schema(try type.schema())
            request = OpenAPI.Request(content: [
                .json: .content(.init(schema: json)),
                .multipartForm: .content(.init(schema: JSONSchema.object(properties: [files: JSONSchema.array(required: false, items: JSONSchema.string(contentEncoding: .binary))]))),
            ])
        }
        let success: OpenAPI.Response = if let answer = operation.answer {
            OpenAPI.Response(description: "success", content: [.json: .content(.init(schema: components.schema(try answer.schema())))])
        } else {
            OpenAPI.Response(description: "the file", content: [.anyImage: .content(.init(schema: JSONSchema.string(contentEncoding: .binary)))])
        }
        return OpenAPI.Operation(
            summary: operation.summary, operationId: operation.method.lowercased() + operation.pattern.replacingOccurrences(of: "/", with: "_"),
            parameters: parameters, requestBody: request,
            responses: [OpenAPI.Response.StatusCode(integerLiteral: operation.status): .response(success), .default: .response(
                OpenAPI.Response(description: "an error, in the envelope", content: [.json: .content(.init(schema: errorAnswer))])
            )],
            security: Self.security(operation.access)
        )
    }
}
