import APIDocs
import Contracts
import Foundation

/// An answer checked against a profile's API document: a success against its operation's
/// answer schema; an error against what stands in its place — the canonical error a service
/// answers, or (through the gateway) the dialect's error: `{message}`, `{errorCode}`, the
/// envelope (a page's envelope on a paginated quotehub route).
package enum DocumentCheck {
    package enum Source { case service, gateway }

    /// Departures from the document; empty when the answer conforms or the route answers no JSON.
    package static func violations(profile: Dialect, method: String, path: String, status: Int, json: Data, from source: Source) throws -> [String] {
        let routes = RouteTable.mounted[profile] ?? .standard
        guard let match = routes.match(method: method, path: path),
            let operation = APIDocument.operations(for: profile).first(where: { $0.method == method && $0.pattern == match.pattern }),
            case .json(let answer) = operation.answer
        else { return [] }
        let schema: WireSchema
        if (200..<300).contains(status) {
            schema = try answer.schema()
        } else if source == .service {
            schema = try WireSchema.of(CanonicalError.self)
        } else if status == 420, profile != .quotehub {
            schema = try WireSchema.of(MessageAnswer.self)  // no key, no app to speak for: `{message}` in every dialect
        } else if match.paginated {
            schema = try answer.schema()
        } else {
            schema = try APIDocument.errorAnswer(for: profile).schema()
        }
        return schema.violations(of: try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed))
    }
}
