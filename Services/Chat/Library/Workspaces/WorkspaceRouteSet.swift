import FileStorage
import ServiceKit

/// Everything §8 serves: workspace covers, workspaces, channels, DMs.
struct WorkspaceRouteSet: Sendable {
    let covers: FileStore
    let workspaces: WorkspaceRoutes
    let channels: ChannelRoutes
    let dms: DirectMessageRoutes

    func register(internal group: ServiceApplication.Group, protected: ServiceApplication.Group) {
        covers.registerServing(on: group)
        workspaces.register(protected: protected)
        channels.register(protected: protected)
        dms.register(protected: protected)
    }
}
