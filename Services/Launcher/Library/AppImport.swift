import AuthService
import Backup
import Contracts
import FileStorage
import Foundation
import Logging
import NIOPosix
import ServiceKit
import Storage
import ZlibCoding

/// `glint app import`: loads an export (`AppExport`) into a deployment, on whichever engine
/// each of its services uses there, ids kept. Checked whole first (format, every digest); then
/// refused when the deployment already holds any record of the app. The uploads are written
/// first, then each store in one transaction, auth-svc's last: the app answers only once
/// everything it names is there. A store that fails takes back what the stores before it loaded.
package enum AppImport {
    package struct Outcome: Sendable {
        package var manifest: AppExportManifest
        package var rows: [String: Int]
        package var files: Int
        /// The app's new key, when one was asked for.
        package var newKey: String?
    }

    /// An export is read whole: bounded.
    static let largestArchive = 4 << 30

    package static func run(from path: String, into sources: Backups.Sources, files: UploadedFiles, app: ImportedApp) async throws -> Outcome {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw ServiceError.badRequest("\(path) is not there")
        }
        guard size <= largestArchive else { throw ServiceError.badRequest("\(path) is larger than an export may be (\(largestArchive) bytes)") }
        let (manifest, entries) = try await read(path)
        var stores: [(ServiceName, StoreEngine)] = []
        defer { for (_, engine) in stores { engine.close() } }
        for store in manifest.stores {
            guard let service = ServiceName(rawValue: store.service), !ServiceCatalog.exportedTables(for: service).isEmpty else {
                throw ServiceError.badRequest("the export holds records of \(store.service), which keeps none here")
            }
            let known = Set(ServiceCatalog.exportedTables(for: service).map(\.table))
            if let unknown = store.tables.first(where: { !known.contains($0.name) }) {
                throw ServiceError.badRequest(
                    "the export holds \(store.service)'s \(unknown.name), a table this build does not load (it comes from a newer one)")
            }
            let path = sources.dataDirectory + "/" + service.rawValue + ".sqlite"
            try DataDirectory.ensure(sources.dataDirectory)
            let engine = try await ServiceCatalog.openStore(
                for: service, databaseURL: sources.databases[service], sqlitePath: path, logger: AppExport.logger)
            stores.append((service, engine))
            let held = try await AppRecords.count(ServiceCatalog.exportedTables(for: service), appID: manifest.app.id, on: engine)
            guard held == 0 else {
                throw ServiceError(.conflict, "\(service.rawValue) already holds \(held) records of app \(manifest.app.id) (\(manifest.app.name))")
            }
        }
        var keys: [(FileKey, Data)] = []
        for file in manifest.files {
            // Names become paths here: only an area the service keeps and a name it could have made.
            guard let service = ServiceName(rawValue: file.service),
                ServiceCatalog.fileReferences(for: service).contains(where: { $0.area == file.area }), FileStore.isSafeName(file.name),
                let bytes = entries[file.entry]
            else { throw ServiceError.badRequest("the export's file \(file.entry) is not one a service here keeps") }
            keys.append((FileKey(service: service, appID: manifest.app.id, area: file.area, name: file.name), bytes))
        }
        for (key, bytes) in keys { try await files.write(key, bytes) }
        var rows: [String: Int] = [:]
        var loaded: [(ServiceName, StoreEngine)] = []
        for service in ServiceCatalog.appRecordOrder {
            guard let store = manifest.stores.first(where: { $0.service == service.rawValue }),
                let engine = stores.first(where: { $0.0 == service })?.1
            else { continue }
            var lines: [String: AppRecords.Lines] = [:]
            for table in store.tables {
                let columns = try table.columns.map { column in
                    guard let kind = ExportedColumn.Kind(rawValue: column.kind) else {
                        throw ServiceError.badRequest("\(table.entry): column \(column.name) is of no kind this build knows (\(column.kind))")
                    }
                    return ExportedColumn(name: column.name, kind: kind)
                }
                lines[table.name] = AppRecords.Lines(table: table.name, columns: columns, rows: table.rows, data: entries[table.entry] ?? Data())
            }
            do {
                let counts = try await AppRecords.load(
                    ServiceCatalog.exportedTables(for: service), lines: lines, appID: manifest.app.id, into: engine, rewrite: app.rewrite)
                for (table, count) in counts { rows[service.rawValue + "/" + table] = count }
                loaded.append((service, engine))
            } catch {
                for (earlier, engine) in loaded.reversed() {
                    do {
                        try await AppRecords.remove(ServiceCatalog.exportedTables(for: earlier), appID: manifest.app.id, from: engine)
                    } catch let failure {
                        AppExport.logger.error(
                            "could not take back an import's records", metadata: ["service": "\(earlier.rawValue)", "error": "\(failure)"])
                    }
                }
                throw ServiceError.badRequest("\(service.rawValue): \(String(describing: error)) (nothing of the app was kept)")
            }
        }
        return Outcome(manifest: manifest, rows: rows, files: manifest.files.count, newKey: app.newKey)
    }

    /// The manifest and every entry by name, each entry checked against the manifest's digest.
    static func read(_ path: String) async throws -> (AppExportManifest, [String: Data]) {
        try await NIOThreadPool.singleton.runIfActive {
            let archive = try Data(contentsOf: URL(fileURLWithPath: path))
            let entries = try TarArchive.decode(try Gzip.decompress(archive, limit: 4 * largestArchive))
            guard let first = entries.first, first.name == "manifest.json",
                let manifest = try? JSONCoding.decoder.decode(AppExportManifest.self, from: first.bytes),
                manifest.format == AppExportManifest.formatName
            else { throw ServiceError.badRequest("\(path) is not an app export (no manifest)") }
            guard manifest.version <= AppExportManifest.currentVersion else {
                throw ServiceError.badRequest("\(path) is an export of version \(manifest.version), newer than this build reads")
            }
            let byName = Dictionary(entries.dropFirst().map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
            let expected = manifest.stores.flatMap { $0.tables.map { ($0.entry, $0.sha256) } } + manifest.files.map { ($0.entry, $0.sha256) }
            for (entry, digest) in expected {
                guard let bytes = byName[entry] else { throw ServiceError.badRequest("\(path): \(entry) is missing") }
                guard BackupManifest.digest(bytes) == digest else { throw ServiceError.badRequest("\(path): \(entry) does not match its checksum") }
            }
            return (manifest, byName)
        }
    }
}
