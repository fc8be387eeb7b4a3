import APIDocs
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIKit
import ServiceKit

/// `GET /openapi/{profile}.json` and `GET /docs`: the API documents, built once at start from
/// the catalogues and the Contracts types; no key needed.
struct DocumentRoutes: Sendable {
    let documents: [Dialect: ByteBuffer]
    let page: ByteBuffer

    /// A document that cannot be built (a type whose shape cannot be read, which the APIDocs
    /// tests catch first) is logged and left out rather than stopping the gateway.
    init(logger: Logger) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var built: [(Dialect, OpenAPI.Document)] = []
        var documents: [Dialect: ByteBuffer] = [:]
        for profile in Dialect.allCases where !APIDocument.operations(for: profile).isEmpty {
            do {
                let document = try APIDocument.build(profile)
                documents[profile] = ByteBuffer(data: try encoder.encode(document))
                built.append((profile, document))
            } catch {
                logger.error("API document not built", metadata: ["profile": "\(profile.rawValue)", "error": "\(error)"])
            }
        }
        self.documents = documents
        page = ByteBuffer(string: DocsPage.render(built))
    }

    func register(on router: Router<GlintRequestContext>) {
        router.get("/openapi/{file}") { _, context -> Response in
            let file = try context.parameters.require("file")
            guard file.hasSuffix(".json"), let profile = Dialect(rawValue: String(file.dropLast(5))), let document = documents[profile] else {
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
