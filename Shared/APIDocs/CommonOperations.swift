import Contracts

/// Operations more than one catalogue lists: stored files and the Engine.IO endpoint.
enum CommonOperations {
    /// `GET` and `HEAD` of the files stored under a folder (`/v1/data/posts/**`).
    static func files(under folder: String) -> [DocumentedOperation] {
        ["GET", "HEAD"].map { method in
            DocumentedOperation(method: method, pattern: folder + "/**", summary: "A stored file", access: .open, answer: .file)
        }
    }

    /// API.md §3: Engine.IO v4 at `/socket.io/` (polling here; the websocket upgrade is a GET
    /// with `transport=websocket`). The key and the token are optional: sockets without them
    /// are judged per namespace.
    static let socketIO: [DocumentedOperation] = {
        let query = [
            DocumentedOperation.Parameter("EIO", .enumeration(["4"]), required: true),
            DocumentedOperation.Parameter("transport", .enumeration(["polling", "websocket"]), required: true),
            DocumentedOperation.Parameter("sid", .string),
        ]
        return [
            DocumentedOperation(
                method: "GET", pattern: "/socket.io/**", summary: "Engine.IO: open a session (no sid) or receive its packets",
                access: .guest, query: query, answer: .engineIO, servedAt: "/socket.io/"),
            DocumentedOperation(
                method: "POST", pattern: "/socket.io/**", summary: "Engine.IO: send packets on a session", access: .guest,
                query: query, body: .text, answer: .engineIO, servedAt: "/socket.io/"),
        ]
    }()
}
