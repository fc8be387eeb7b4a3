import Contracts

/// One stored upload: the service that took it, the app it belongs to, its area (`posts`,
/// `profiles`, …) and the name we made for it. A local folder keeps it at
/// `files/<area>/<name>`; a bucket at `<service>/<app>/<area>/<name>`.
package struct FileKey: Sendable, Hashable {
    package var service: ServiceName
    package var appID: String
    package var area: String
    package var name: String

    package init(service: ServiceName, appID: String, area: String, name: String) {
        (self.service, self.appID, self.area, self.name) = (service, appID, area, name)
    }

    /// The object's key in a bucket.
    package var objectKey: String { "\(service.rawValue)/\(appID)/\(area)/\(name)" }
}
