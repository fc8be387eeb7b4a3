import Backup
import Contracts
import FileStorage
import Foundation
import Logging
import NIOPosix
import ServiceKit
import Storage
import ZlibCoding

/// `glint app export`: every record of one app, from each service's store (its SQLite file or
/// its `*_DATABASE_URL`), as JSON lines, and the uploads its records name, in one `.tar.gz`
/// with a manifest. Each store is read in one transaction; the stores one after another, in
/// the order an import loads them, auth-svc last (so a reference finds its target in a store
/// read later, as a backup's copies do). Sessions are left out: the export signs nobody in.
package enum AppExport {
    static let logger = Logger(label: "glint-app-export")

    package static func run(app name: String, from sources: Backups.Sources, files: UploadedFiles, to path: String) async throws -> AppExportManifest
    {
        let exportedAt = GlintDate.nowMilliseconds()
        var stores: [AppExportManifest.Store] = []
        var entries: [TarArchive.Entry] = []
        var paths: [(service: ServiceName, path: String)] = []
        var app: AppExportManifest.App?
        // auth-svc names the app (by its name, id or mount); its records are read last all the same.
        guard let auth = try await open(.auth, sources, required: true) else { throw ServiceError(.internalError, "auth-svc's store") }
        defer { auth.close() }
        let ids = try await AppRecords.strings("SELECT id FROM app WHERE id = {app} OR name = {app} OR mount = {app}", name, on: auth)
        guard ids.count == 1 else {
            throw ServiceError.badRequest(ids.isEmpty ? "no app is named \(name)" : "\(ids.count) apps answer to \(name): give its id")
        }
        let appID = ids[0]
        for service in ServiceCatalog.appRecordOrder {
            let opened = service == .auth ? nil : try await open(service, sources, required: false)
            defer { opened?.close() }
            guard let engine = service == .auth ? auth : opened else { continue }
            let lines = try await AppRecords.export(ServiceCatalog.exportedTables(for: service), appID: appID, from: engine)
            if let row = lines.first(where: { $0.table == "app" })?.data {
                app = try JSONDecoder().decode(AppExportManifest.App.self, from: row.prefix { $0 != UInt8(ascii: "\n") })
            }
            var store = AppExportManifest.Store(service: service.rawValue, engine: engine.name, tables: [])
            for table in lines {
                let entry = "records/\(service.rawValue)/\(table.table).jsonl"
                entries.append(TarArchive.Entry(name: entry, bytes: table.data))
                store.tables.append(
                    AppExportManifest.Table(
                        name: table.table, entry: entry, rows: table.rows, bytes: table.data.count, sha256: BackupManifest.digest(table.data),
                        columns: table.columns.map { AppExportManifest.Column(name: $0.name, kind: $0.kind.rawValue) }))
            }
            stores.append(store)
            for reference in ServiceCatalog.fileReferences(for: service) {
                for (owner, path) in try await reference.paths(on: engine) where owner == appID {
                    paths.append((service, path))
                }
            }
        }
        guard let app else { throw ServiceError(.internalError, "the app's row was not read") }
        var exported: [AppExportManifest.File] = []
        var missing: [String] = []
        var seen = Set<String>()
        for (service, path) in paths where seen.insert(path).inserted {
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == 3, parts[0] == "data", FileStore.isSafeName(String(parts[2])) else {
                missing.append(path)
                continue
            }
            let key = FileKey(service: service, appID: app.id, area: String(parts[1]), name: String(parts[2]))
            guard let bytes = try await files.read(key) else {
                missing.append(path)
                continue
            }
            let entry = "files/\(service.rawValue)/\(key.area)/\(key.name)"
            entries.append(TarArchive.Entry(name: entry, bytes: bytes))
            exported.append(
                AppExportManifest.File(
                    entry: entry, service: service.rawValue, area: key.area, name: key.name, bytes: bytes.count, sha256: BackupManifest.digest(bytes))
            )
        }
        if !missing.isEmpty { logger.warning("records name files that are not there", metadata: ["count": "\(missing.count)"]) }
        let manifest = AppExportManifest(
            format: AppExportManifest.formatName, version: AppExportManifest.currentVersion, exportedAt: exportedAt, app: app, stores: stores,
            files: exported, missingFiles: missing)
        let all = [TarArchive.Entry(name: "manifest.json", bytes: try JSONCoding.encoder.encode(manifest))] + entries
        let archive = try await NIOThreadPool.singleton.runIfActive { try TarArchive.gzipped(all) }
        // Written beside its name, then renamed: a reader never sees half an export.
        let partial = path + ".partial"
        try archive.write(to: URL(fileURLWithPath: partial))
        guard rename(partial, path) == 0 else { throw ServiceError(.internalError, "could not write \(path): errno \(errno)") }
        return manifest
    }

    /// A service's store where the sources name it; nil for a SQLite file that is not there
    /// (the service never ran), unless `required`.
    static func open(_ service: ServiceName, _ sources: Backups.Sources, required: Bool) async throws -> StoreEngine? {
        let path = sources.dataDirectory + "/" + service.rawValue + ".sqlite"
        let url = sources.databases[service]
        if url == nil, !FileManager.default.fileExists(atPath: path) {
            if required { throw ServiceError.badRequest("\(path) is not there (and \(service.rawValue)'s *_DATABASE_URL is not set)") }
            return nil
        }
        return try await ServiceCatalog.openStore(for: service, databaseURL: url, sqlitePath: path, logger: logger)
    }
}
