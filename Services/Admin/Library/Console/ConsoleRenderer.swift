import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The console's templates (`Assets/*.mustache`, loaded once) and the headers every page carries:
/// no script or style from anywhere but `/admin`, never framed, never cached.
struct ConsoleRenderer: Sendable {
    let library: MustacheLibrary
    let stylesheet: String
    let script: String

    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        .cacheControl: "no-store",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
    ]

    /// The templates in the admin-svc bundle.
    static func bundled() throws -> ConsoleRenderer {
        guard let folder = Bundle.module.url(forResource: "Assets", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "the console's Assets in admin-svc's bundle"])
        }
        var templates: [String: MustacheTemplate] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) where file.pathExtension == "mustache" {
            templates[file.deletingPathExtension().lastPathComponent] = try MustacheTemplate(string: String(contentsOf: file, encoding: .utf8))
        }
        let stylesheet = try String(contentsOf: folder.appendingPathComponent("console.css"), encoding: .utf8)
        let script = try String(contentsOf: folder.appendingPathComponent("console.js"), encoding: .utf8)
        return ConsoleRenderer(library: MustacheLibrary(templates: templates), stylesheet: stylesheet, script: script)
    }

    func page(_ template: String, _ view: Any, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = Self.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers.append(contentsOf: extra)
        let html = library.render(TemplateValues.tree(view) ?? [:], withTemplate: template) ?? "missing template \(template)"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// POST/redirect/GET: a form's answer sends the browser to a page to load.
    static func redirect(_ location: String, headers extra: HTTPFields = [:]) -> Response {
        var headers = securityHeaders
        headers[.location] = location
        headers.append(contentsOf: extra)
        return Response(status: .seeOther, headers: headers)
    }

    var stylesheetResponse: Response { Self.asset(stylesheet, type: "text/css; charset=utf-8") }

    var scriptResponse: Response { Self.asset(script, type: "text/javascript; charset=utf-8") }

    private static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "max-age=300", HTTPField.Name("X-Content-Type-Options")!: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
