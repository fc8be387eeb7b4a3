import Contracts
import Foundation
import OpenAPIKit

/// `GET /docs`: the documents as one readable page, rendered from them (no assets fetched from
/// anywhere): per profile each operation with its access, parameters, body and answer, then
/// the schemas.
package enum DocsPage {
    package static func render(_ documents: [(name: String, document: OpenAPI.Document)]) -> String {
        var html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Glint Backend API</title>
            <style>body{font-family:sans-serif;margin:24px;max-width:1100px}code,pre{font-family:monospace}table{border-collapse:collapse;width:100%}
            td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:8px;overflow:auto}</style>
            </head><body><h1>Glint Backend API</h1>
            """
        html +=
            "<p>Machine-readable: " + documents.map { "<a href=\"/openapi/\($0.name).json\">\($0.name)</a>" }.joined(separator: ", ")
            + "</p>"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        for (profile, document) in documents {
            html +=
                "<h2>\(escape(document.info.title)) (<code>\(profile)</code>)</h2><table><tr><th>method</th><th>path</th><th>what</th><th>credentials</th><th>query</th><th>body</th><th>answers</th></tr>"
            for (path, item) in document.paths {
                guard let item = item.pathItemValue else { continue }
                for endpoint in item.endpoints {
                    let operation = endpoint.operation
                    let query = operation.parameters.compactMap { $0.parameterValue }.map { $0.name + ($0.required ? "" : "?") }.joined(
                        separator: ", ")
                    let body = operation.requestBody?.requestValue.map { $0.content.keys.map(\.rawValue).joined(separator: " or ") } ?? ""
                    let answers = operation.responses.compactMap { status, response -> String? in
                        guard let schema = response.responseValue?.content.values.first?.contentValue?.schema else { return nil }
                        return "\(status.rawValue): " + name(schema, profile)
                    }.joined(separator: "<br>")
                    html +=
                        "<tr><td><code>\(endpoint.method.rawValue)</code></td><td><code>\(escape(path.rawValue))</code></td><td>\(escape(operation.summary ?? ""))</td>"
                        + "<td>\(escape(credentials(operation.security)))</td><td>\(escape(query))</td><td>\(escape(body))</td><td>\(answers)</td></tr>"
                }
            }
            html += "</table><h3>Schemas</h3>"
            for (key, schema) in document.components.schemas {
                let text = (try? encoder.encode(schema)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                html += "<h4 id=\"\(profile)-\(escape(key.rawValue))\">\(escape(key.rawValue))</h4><pre>\(escape(text))</pre>"
            }
        }
        return html + "</body></html>"
    }

    /// The alternatives a call may present: `appKey + accessToken`, `none or bearer`, ….
    private static func credentials(_ security: [OpenAPI.SecurityRequirement]?) -> String {
        guard let security else { return "none" }
        return security.map { $0.isEmpty ? "none" : $0.keys.compactMap(\.name).sorted().joined(separator: " + ") }.joined(separator: " or ")
    }

    private static func name(_ schema: JSONSchema, _ profile: String) -> String {
        if let reference = schema.reference?.name {
            return "<a href=\"#\(profile)-\(escape(reference))\"><code>\(escape(reference))</code></a>"
        }
        return "<code>\(escape(schema.jsonType?.rawValue ?? "any"))</code>"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
