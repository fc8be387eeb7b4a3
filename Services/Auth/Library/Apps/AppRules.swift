import ServiceKit

/// A new app, whatever engine keeps it: its key names one app, and a mount serves one app. The
/// unique keys on both engines hold this too; asked first, each store answers which one is taken.
enum AppRules {
    static func checkNew(keyTaken: Bool, mountTaken: Bool) throws {
        guard !keyTaken else { throw StoreError.conflict("an app with that key exists") }
        guard !mountTaken else { throw StoreError.conflict("an app is mounted there") }
    }
}
