import APIDocs
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIKit
import ServiceKit

/// `GET /openapi/{name}.json` (a profile's, or `admin`: the operators' API) and `GET /docs`: the
/// API documents, built once at start from the catalogues and the Contracts types; no key needed.
struct DocumentRoutes: Sendable {
    let documents: [String: ByteBuffer]
    let page: ByteBuffer

    /// A document that cannot be built (a type whose shape cannot be read, which the APIDocs
    /// tests catch first) is logged and left out rather than stopping the gateway.
    init(logger: Logger) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var built: [(name: String, document: OpenAPI.Document)] = []
        var documents: [String: ByteBuffer] = [:]
        let builders: [(String, () throws -> OpenAPI.Document)] =
            Dialect.allCases.filter { !APIDocument.operations(for: $0).isEmpty }.map { profile in
                (profile.rawValue, { try APIDocument.build(profile) })
            }
            + [("admin", APIDocument.buildAdmin)]
        for (name, build) in builders {
            do {
                let document = try build()
                documents[name] = ByteBuffer(data: try encoder.encode(document))
                built.append((name, document))
            } catch {
                logger.error("API document not built", metadata: ["document": "\(name)", "error": "\(error)"])
            }
        }
        self.documents = documents
        page = ByteBuffer(string: DocsPage.render(built))
    }

    func register(on router: Router<GlintRequestContext>) {
        router.get("/openapi/{file}") { _, context -> Response in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".json"), let document = documents[String(file.dropLast(5))] else {
                return JSONCoding.response(status: .notFound, body: CanonicalError(code: .notFound, message: "no API document by that name"))
            }
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-cache"], body: .init(byteBuffer: document))
        }
        router.get("/docs") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                    .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
                ],
                body: .init(byteBuffer: page))
        }
    }
}
