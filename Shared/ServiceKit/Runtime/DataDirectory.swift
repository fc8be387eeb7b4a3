import Foundation

/// Files a service keeps beside its database (keys, uploads).
package enum DataDirectory {
    package static func ensure(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes a file readable by its owner only (private keys, secrets).
    package static func writePrivate(_ data: Data, to path: String) throws {
        let created = FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        guard created else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
