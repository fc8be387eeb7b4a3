import Contracts
import OpenAPIKit

/// OpenAPI links from a created thing's ids to the operations that take them, so that a stateful
/// client (the fuzzer) can follow a new post to its page, its comments and its likes, or a new
/// workspace to its channels. Derived from the answer's top-level keys and the targets' path
/// parameters (within the source's first path segment: §9's `{id}` of a story is not a
/// theme's); a parameter the source's own path has is passed on from the request.
enum DocumentLinks {
    /// Path parameters named otherwise than the answer's key (§8's short names, §9's `_id`).
    static let answerKeys = ["wid": "workspace_id", "cid": "channel_id", "room": "room_id", "id": "_id"]

    static func links(from source: DocumentedOperation, to operations: [DocumentedOperation]) throws -> OpenAPI.Link.Map {
        guard source.method == "POST" || source.method == "PUT", case .json(let type) = source.answer else { return [:] }
        let answered = pointers(try type.schema())
        let passedOn = Set(APIDocument.path(source.documentedPath).1)
        let resource = source.pattern.split(separator: "/").first
        var links: OpenAPI.Link.Map = [:]
        for target in operations where target.pattern.split(separator: "/").first == resource {
            let parameters = APIDocument.path(target.documentedPath).1
            var values: OrderedDictionary<String, Either<OpenAPI.RuntimeExpression, AnyCodable>> = [:]
            var fromAnswer = false
            for parameter in parameters {
                let key = answerKeys[parameter] ?? parameter
                if let pointer = answered[key], let expression = OpenAPI.RuntimeExpression(rawValue: "$response.body#" + pointer) {
                    values[parameter] = .a(expression)
                    fromAnswer = true
                } else if passedOn.contains(parameter), let expression = OpenAPI.RuntimeExpression(rawValue: "$request.path." + parameter) {
                    values[parameter] = .a(expression)
                }
            }
            guard fromAnswer, values.count == parameters.count else { continue }
            links[target.operationID] = .b(OpenAPI.Link(operationId: target.operationID, parameters: values))
        }
        return links
    }

    /// The answer's keys and where each is: at the top, or inside §9's envelope `data`.
    static func pointers(_ schema: WireSchema) -> [String: String] {
        guard case .object(_, let properties) = schema else { return [:] }
        var pointers: [String: String] = [:]
        for property in properties {
            if property.key == "data", case .object(_, let inner) = property.schema {
                for key in inner.map(\.key) { pointers[key] = pointers[key] ?? "/data/" + key }
            } else {
                pointers[property.key] = "/" + property.key
            }
        }
        return pointers
    }
}
