import ServiceKit

/// A workspace's changes of state, whatever engine keeps it: a purchase is activated once and
/// only while pending (a sweep may have given it up), and a workspace passes only to one of its
/// members. Each store reads the workspace (locked) and asks; a name taken twice is refused by
/// the (app, owner, name) key on both engines.
enum WorkspaceRules {
    /// The workspace, now active; `found` nil: none.
    static func activated(_ found: WorkspaceRecord?) throws -> WorkspaceRecord {
        guard var workspace = found, workspace.state == .pending else { throw StoreError.notFound("the workspace purchase was given up") }
        workspace.state = .active
        return workspace
    }

    /// The workspace, now `newOwner`'s.
    static func transferred(_ found: WorkspaceRecord?, to newOwner: String, isMember: Bool) throws -> WorkspaceRecord {
        guard var workspace = found else { throw StoreError.notFound("workspace not found") }
        guard isMember else { throw StoreError.notFound("the new owner is not a member") }
        workspace.ownerID = newOwner
        return workspace
    }
}
