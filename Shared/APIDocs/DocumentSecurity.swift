import Contracts
import OpenAPIKit

/// How a profile's clients identify themselves: quotehub apps by a Bearer token under their
/// mount; lslp and slp apps by the `SeSACKey` header and the raw access token in
/// `Authorization` (API.md §0), on the route table's key rule; operators (no profile: the admin
/// API) by their session cookie, and its CSRF token on every state-changing call.
struct DocumentSecurity {
    let profile: Dialect?

    var server: OpenAPI.Server {
        profile == .quotehub
            ? .init(urlTemplate: URLTemplate(rawValue: "/{mount}")!, variables: ["mount": .init(default: "quotehub")])
            : .init(urlTemplate: URLTemplate(rawValue: "/")!)
    }

    var schemes: OrderedDictionary<OpenAPI.ComponentKey, Either<OpenAPI.Reference<OpenAPI.SecurityScheme>, OpenAPI.SecurityScheme>> {
        guard profile != nil else {
            return [
                "session": .b(.apiKey(name: "glint_admin", location: .cookie, description: "the operator's session (POST /admin/api/session)")),
                "csrf": .b(.apiKey(name: "X-CSRF-Token", location: .header, description: "the session's csrfToken")),
            ]
        }
        return profile == .quotehub
            ? ["bearer": .b(.http(scheme: "bearer", bearerFormat: "JWT"))]
            : [
                "appKey": .b(.apiKey(name: "SeSACKey", location: .header)),
                "accessToken": .b(
                    .apiKey(name: "Authorization", location: .header, description: "the raw access token (`Bearer <token>` works too)")),
            ]
    }

    /// Whether the gateway may refuse the call's key: `420 {"message"}` in every dialect, since
    /// without a valid key there is no app to speak for (API.md §0, §8).
    func checksKey(_ operation: DocumentedOperation) -> Bool {
        profile != nil && profile != .quotehub && keyRule(operation) != .none
    }

    private func keyRule(_ operation: DocumentedOperation) -> AppKeyRule {
        RouteTable.standard.match(method: operation.method, path: operation.pattern)?.appKey ?? .required
    }

    /// The alternatives a call may present; the empty requirement is "nothing".
    func requirements(_ operation: DocumentedOperation) -> [OpenAPI.SecurityRequirement]? {
        guard profile != nil else {
            guard operation.access != .open else { return nil }
            return operation.method == "GET"
                ? [[.component(named: "session"): []]] : [[.component(named: "session"): [], .component(named: "csrf"): []]]
        }
        let token: OpenAPI.SecurityRequirement = profile == .quotehub ? [.component(named: "bearer"): []] : [.component(named: "accessToken"): []]
        var keys: [OpenAPI.SecurityRequirement] = [[:]]
        if profile != .quotehub {
            let key: OpenAPI.SecurityRequirement = [.component(named: "appKey"): []]
            switch keyRule(operation) {
            case .required: keys = [key]
            case .optional: keys = [[:], key]
            case .none: keys = [[:]]
            }
        }
        let alternatives: [OpenAPI.SecurityRequirement] =
            switch operation.access {
            case .open: keys
            case .guest: keys + keys.map { $0.merging(token) { first, _ in first } }
            case .signedIn: keys.map { $0.merging(token) { first, _ in first } }
            }
        return alternatives == [[:]] ? nil : alternatives
    }
}
