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

    /// Each level's few names in arrays, compared byte for byte: hashing every segment of every
    /// path (Substrings, through String's hashing) cost more than the comparisons. A class, built
    /// once (`Branch`): walking the trie passes references, not copies of a node's arrays.
    private final class Node: Sendable {
        /// The fixed children's segments as bytes, in `children`'s order.
        let segments: [[UInt8]]
        let children: [Node]
        /// The child any segment leads to (a `{parameter}`), tried after the fixed ones.
        let parameter: Node?
        let methods: Methods
        let rest: Methods

        init(_ branch: Branch) {
            let fixed = branch.segments.indices.filter { branch.segments[$0] != RouteTable.parameterKey }
            segments = fixed.map { Array(branch.segments[$0].utf8) }
            children = fixed.map { Node(branch.children[$0]) }
            parameter = branch.segments.firstIndex { $0 == RouteTable.parameterKey }.map { Node(branch.children[$0]) }
            methods = branch.methods
            rest = branch.rest
        }

        /// The same node and all below it, made anew.
        init(copying node: Node) {
            segments = node.segments
            children = node.children.map(Node.init(copying:))
            parameter = node.parameter.map(Node.init(copying:))
            methods = node.methods
            rest = node.rest
        }

        /// The fixed child for a segment as the path has it.
        func child(_ segment: UnsafeBufferPointer<UInt8>) -> Node? {
            for index in segments.indices where segments[index].count == segment.count {
                if segments[index].withUnsafeBufferPointer({ $0.elementsEqual(segment) }) { return children[index] }
            }
            return nil
        }
    }

    /// A node as the routes are added.
    private struct Branch {
        var segments: [String] = []
        var children: [Branch] = []
        var methods = Methods()
        var rest = Methods()

        mutating func child(_ segment: Substring, _ insert: (inout Branch) -> Void) {
            if let index = segments.firstIndex(where: { $0 == segment }) { return insert(&children[index]) }
            var branch = Branch()
            insert(&branch)
            segments.append(String(segment))
            children.append(branch)
        }
    }

    /// A node's routes by method: a handful at most.
    private struct Methods: Sendable {
        private var methods: [String] = []
        private var matches: [Match] = []

        subscript(method: String) -> Match? {
            // Bytes compared: `==` on two different strings asks about Unicode equivalence first.
            for index in methods.indices where methods[index].utf8.elementsEqual(method.utf8) { return matches[index] }
            return nil
        }

        mutating func add(_ method: String, _ match: Match) {
            precondition(self[method] == nil, "duplicate route \(method) \(match.pattern)")
            methods.append(method)
            matches.append(match)
        }
    }

    private static let parameterKey: Substring = "\u{0}{}"
    private let root: Node

    package init(_ routes: [Route]) {
        var root = Branch()
        for route in routes { Self.insert(route, into: &root) }
        // HEAD wherever GET is (RFC 9110 §9.3.2), as the services answer it, unless a route says
        // HEAD itself (files). The two GETs that change state refuse a HEAD in their handlers
        // (auth-svc's `AccountRoutes.refuseHead`): only the handler knows it writes.
        let heads = Set(routes.lazy.filter { $0.method == "HEAD" }.map(\.pattern))
        for var route in routes where route.method == "GET" && !heads.contains(route.pattern) {
            route.method = "HEAD"
            Self.insert(route, into: &root)
        }
        self.root = Node(root)
    }

    private init(root: Node) {
        self.root = root
    }

    /// The same table in nodes of its own, for a thread that walks it on every request (the
    /// gateway's front loops): a walk takes and drops a reference to each node it passes, and
    /// on nodes every core shares those counts moved between the cores.
    package func copy() -> RouteTable {
        RouteTable(root: Node(copying: root))
    }

    package func match(method: String, path: some StringProtocol) -> Match? {
        // Segments are ranges of the path's bytes, cut as the trie is walked: no array, no copies,
        // none of a Substring's index checks (those were most of the gateway's route match).
        var path = Substring(path)
        return path.withUTF8 { Self.match(root, $0, from: 0, method: method) }
    }

    private static func match(_ node: Node, _ path: UnsafeBufferPointer<UInt8>, from: Int, method: String) -> Match? {
        let slash = UInt8(ascii: "/")
        var start = from
        while start < path.count, path[start] == slash { start += 1 }
        guard start < path.count else { return node.methods[method] ?? node.rest[method] }
        var end = start + 1
        while end < path.count, path[end] != slash { end += 1 }
        if let child = node.child(UnsafeBufferPointer(rebasing: path[start..<end])), let found = match(child, path, from: end, method: method) {
            return found
        }
        if let child = node.parameter, let found = match(child, path, from: end, method: method) {
            return found
        }
        return node.rest[method]
    }

    private static func insert(_ route: Route, into root: inout Branch) {
        let segments = route.pattern.split(separator: "/", omittingEmptySubsequences: true)
        let match = Match(service: route.service, appKey: route.appKey, pattern: route.pattern, paginated: route.paginated)
        insert(&root, segments[...], method: route.method, match: match)
    }

    private static func insert(_ node: inout Branch, _ segments: ArraySlice<Substring>, method: String, match: Match) {
        guard let segment = segments.first else {
            node.methods.add(method, match)
            return
        }
        if segment == "**" {
            precondition(segments.count == 1, "** must end a pattern: \(match.pattern)")
            node.rest.add(method, match)
            return
        }
        let key = segment.hasPrefix("{") && segment.hasSuffix("}") ? parameterKey : segment
        node.child(key) { insert(&$0, segments.dropFirst(), method: method, match: match) }
    }
}
