/// Resolves method + path to the owning service. Built once into a trie; fixed segments win over
/// parameters (`/v1/filters/hot-trend` is not filter id `hot-trend`), with backtracking so a
/// fixed branch that has no such method falls back to the parameter branch. Trailing and repeated
/// slashes are ignored.
package struct RouteTable: Sendable {
    package struct Match: Sendable, Equatable {
        package var service: ServiceName
        package var appKey: AppKeyRule
        package var pattern: String
        package var paginated = false
    }

    private struct Node: Sendable {
        var children: [Substring: Node] = [:]
        var methods: [String: Match] = [:]
        var rest: [String: Match] = [:]
    }

    private static let parameterKey: Substring = "\u{0}{}"
    private var root = Node()

    package init(_ routes: [Route]) {
        for route in routes { insert(route) }
        // HEAD wherever GET is (RFC 9110 §9.3.2), as the services answer it, unless a route says
        // HEAD itself (files). The two GETs that change state refuse a HEAD in their handlers
        // (auth-svc's `AccountRoutes.refuseHead`): only the handler knows it writes.
        let heads = Set(routes.lazy.filter { $0.method == "HEAD" }.map(\.pattern))
        for var route in routes where route.method == "GET" && !heads.contains(route.pattern) {
            route.method = "HEAD"
            insert(route)
        }
    }

    package func match(method: String, path: some StringProtocol) -> Match? {
        // Segments are cut from the path as the trie is walked: no array, no copies.
        Self.match(root, Substring(path), method: method)
    }

    private static func match(_ node: Node, _ path: Substring, method: String) -> Match? {
        let slash = UInt8(ascii: "/")
        guard let start = path.utf8.firstIndex(where: { $0 != slash }) else {
            return node.methods[method] ?? node.rest[method]
        }
        let end = path.utf8[start...].firstIndex(of: slash) ?? path.endIndex
        let segment = path[start..<end]
        let remaining = path[end...]
        if let child = node.children[segment], let found = match(child, remaining, method: method) {
            return found
        }
        if let child = node.children[parameterKey], let found = match(child, remaining, method: method) {
            return found
        }
        return node.rest[method]
    }

    private mutating func insert(_ route: Route) {
        let segments = route.pattern.split(separator: "/", omittingEmptySubsequences: true)
        let match = Match(service: route.service, appKey: route.appKey, pattern: route.pattern, paginated: route.paginated)
        Self.insert(&root, segments[...], method: route.method, match: match)
    }

    private static func insert(_ node: inout Node, _ segments: ArraySlice<Substring>, method: String, match: Match) {
        guard let segment = segments.first else {
            precondition(node.methods[method] == nil, "duplicate route \(method) \(match.pattern)")
            node.methods[method] = match
            return
        }
        if segment == "**" {
            precondition(segments.count == 1, "** must end a pattern: \(match.pattern)")
            node.rest[method] = match
            return
        }
        let key = segment.hasPrefix("{") && segment.hasSuffix("}") ? parameterKey : segment
        insert(&node.children[key, default: Node()], segments.dropFirst(), method: method, match: match)
    }
}
