import Backup
import Foundation
import ServiceKit
import Storage

/// admin-svc's own environment variables.
package enum AdminSettings {
    package static let allowedNetworks = ConfigVariable(
        "ADMIN_ALLOWED_NETWORKS", default: "",
        "comma-separated networks (CIDR, e.g. 10.0.0.0/8, 203.0.113.7/32) operators may sign in from; empty = any address")
    package static let sessionIdleHours = ConfigVariable(
        "ADMIN_SESSION_IDLE_HOURS", default: "12", "hours an operator's session lasts without a request (1-168)")
    package static let databaseURL = ConfigVariable.databaseURL("ADMIN", service: "admin-svc")

    /// With the bucket snapshots go to, admin-svc reads the last run's status from it.
    package static var all: [ConfigVariable] { [allowedNetworks, sessionIdleHours, databaseURL] + BackupBucket.all }
}

struct AdminConfiguration: Sendable {
    var allowedNetworks = NetworkAllowList.any
    var sessionIdle: Duration = .seconds(12 * 3600)
    /// PostgreSQL instead of the SQLite file.
    var databaseURL: String?
    /// Where snapshots go, when a bucket: the last run's status is read there.
    var backupBucket: BackupBucket?
    /// bcrypt's cost for operators' passwords (tests lower it).
    var bcryptCost = 10

    init() {}

    init(reader: ConfigReader) throws {
        let networks = try reader.string(AdminSettings.allowedNetworks)
        if let list = NetworkAllowList(networks) {
            allowedNetworks = list
        } else {
            allowedNetworks = try reader.refuse(AdminSettings.allowedNetworks, "must be comma-separated CIDR networks", standIn: .any)
        }
        sessionIdle = .seconds(try reader.int(AdminSettings.sessionIdleHours, in: 1...168) * 3600)
        databaseURL = try reader.databaseURL(AdminSettings.databaseURL)
        backupBucket = try BackupBucket.read(reader)
    }
}
