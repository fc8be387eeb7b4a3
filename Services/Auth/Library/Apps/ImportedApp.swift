import Contracts
import ServiceKit
import Storage

/// What `glint app import` may change of an app's row as it loads: its name, its mount, its key
/// (a new one made here, by the rule every new key follows). Everything else is kept, its id
/// first: every record names it.
package struct ImportedApp: Sendable {
    package var name: String?
    package var mount: String?
    /// The new key, when one was asked for; the old one (and any key in its grace) then opens nothing.
    package private(set) var newKey: String?

    package init(name: String?, mount: String?, newKey: Bool) throws {
        if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 100 {
            throw ServiceError.badRequest("an app's name is 1-100 characters")
        }
        if let mount, !AppMountName.isValid(mount) {
            throw ServiceError.badRequest("a mount is 1-32 lowercase letters, digits or '-', and not one of \(AppMountName.reserved.sorted())")
        }
        (self.name, self.mount, self.newKey) = (name, mount, newKey ? AppKey.generate() : nil)
    }

    /// The change made to the `app` table's record.
    package var rewrite: AppRecords.Rewrite {
        let (name, mount, newKey) = (name, mount, newKey)
        return { table, values in
            guard table == "app" else { return }
            if let name { values["name"] = .text(name) }
            if let mount { values["mount"] = .text(mount) }
            if let newKey {
                values["api_key"] = .text(newKey)
                values["previous_api_key"] = .null
                values["previous_key_expires_at"] = .null
            }
        }
    }
}
