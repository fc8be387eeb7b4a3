import Foundation
import Storage

/// What an app's export holds (`manifest.json`, its archive's first entry): the app, each
/// store's tables with their columns, rows and digests, and the uploaded files. README's "App
/// export format" describes every record's fields.
package struct AppExportManifest: Codable, Sendable, Equatable {
    package static let formatName = "glint-app-export"
    package static let currentVersion = 1

    package struct App: Codable, Sendable, Equatable {
        package var id: String
        package var name: String
        package var profile: String
        package var mount: String?
    }

    package struct Column: Codable, Sendable, Equatable {
        package var name: String
        /// `integer`, `real`, `boolean`, `text` or `blob` (base64).
        package var kind: String
    }

    package struct Table: Codable, Sendable, Equatable {
        package var name: String
        /// `records/<service>/<table>.jsonl`.
        package var entry: String
        package var rows: Int
        package var bytes: Int
        package var sha256: String
        package var columns: [Column]
    }

    package struct Store: Codable, Sendable, Equatable {
        package var service: String
        /// `sqlite` or `postgresql`: where the records were read.
        package var engine: String
        package var tables: [Table]
    }

    package struct File: Codable, Sendable, Equatable {
        /// `files/<service>/<area>/<name>`; records name it `/data/<area>/<name>`.
        package var entry: String
        package var service: String
        package var area: String
        package var name: String
        package var bytes: Int
        package var sha256: String
    }

    package var format: String
    package var version: Int
    package var exportedAt: Int64
    package var app: App
    package var stores: [Store]
    package var files: [File]
    /// Paths the records name whose file was not found (already missing where they were read).
    package var missingFiles: [String]
}
