/// A stored upload's path (`/data/<area>/<name>`, as records keep it) and where it is read: the
/// service that keeps its area and the path that service serves it at — `/v1/data/…` for keyed
/// apps, `/files/…` for the areas only mounted apps have (book stories, themes).
package struct StoredFilePath: Sendable, Equatable {
    package var service: ServiceName
    package var servedPath: String

    /// Nil for anything but a stored file's path of a known area.
    package init?(_ stored: String) {
        guard stored.hasPrefix("/data/"), !stored.contains(".."), stored.split(separator: "/").count == 3 else { return nil }
        let mountedPath = "/files/" + stored.dropFirst("/data/".count)
        if let match = RouteTable.standard.match(method: "GET", path: "/v1" + stored) {
            (service, servedPath) = (match.service, "/v1" + stored)
        } else if let match = RouteTable.mounted.values.lazy.compactMap({ $0.match(method: "GET", path: mountedPath) }).first {
            (service, servedPath) = (match.service, mountedPath)
        } else {
            return nil
        }
    }
}
