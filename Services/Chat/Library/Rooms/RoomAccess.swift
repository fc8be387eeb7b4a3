import ServiceKit

/// Who opens a room, whatever engine keeps it: a pair room of the caller's app by its
/// participants, a workspace's DM by its two members. Each store reads the room and its
/// participants, asks, and answers what this says.
enum RoomAccess {
    /// `room` nil: no room of that id.
    static func pair(_ room: RoomRecord?, appID: String, participant: Bool) throws -> RoomRecord {
        guard let room, room.appID == appID, room.kind == .pair else { throw StoreError.notFound("room not found") }
        guard participant else { throw StoreError.notPermitted("not a participant of this room") }
        return room
    }

    /// The DM and the other of its two participants (the caller for a DM with oneself).
    static func dm(_ room: RoomRecord?, workspaceID: String, participants: [String], caller: String) throws -> (room: RoomRecord, opponent: String) {
        guard let room, room.kind == .dm, room.workspaceID == workspaceID else { throw StoreError.notFound("room not found") }
        guard participants.contains(caller) else { throw StoreError.notPermitted("not a participant of this room") }
        return (room, participants.first { $0 != caller } ?? caller)
    }
}
