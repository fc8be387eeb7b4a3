import AuthService
import ChatService
import Contracts
import FileStorage
import Foundation
import Logging
import MarketService
import NIOCore
import ServiceKit
import Storage

/// `glint files migrate --to s3`: copies a deployment's uploads from `DATA_DIR/files` into the
/// bucket `FILES_S3_*` name, each at `<service>/<app>/<area>/<name>` — the app found from the
/// records that name the file (`fileReferences` of each service, read on SQLite or on the
/// services' `*_DATABASE_URL`). Idempotent: an object already there with the same size is left
/// as it is, so a run that stopped half-way is run again. Files no record names are counted and
/// left on disk. Then the services can be restarted with `FILES_S3_URL` set.
package enum FileMigration {
    package struct Outcome: Sendable, Equatable {
        package var copied = 0
        package var alreadyThere = 0
        package var unreferenced = 0
    }

    struct ServiceFiles {
        var service: ServiceName
        var references: [FileReference]
        var databaseURL: ConfigVariable
        var open: @Sendable (String?, String, Logger) async throws -> StoreEngine
    }

    static let services = [
        ServiceFiles(service: .auth, references: AuthAssembly.fileReferences, databaseURL: AuthSettings.databaseURL, open: AuthAssembly.openStore),
        ServiceFiles(
            service: .market, references: MarketAssembly.fileReferences, databaseURL: MarketSettings.databaseURL, open: MarketAssembly.openStore),
        ServiceFiles(service: .chat, references: ChatAssembly.fileReferences, databaseURL: ChatSettings.databaseURL, open: ChatAssembly.openStore),
    ]

    package static func toBucket(
        dataDirectory: String, environment: [String: String], logger: Logger, progress: @Sendable (String) -> Void
    ) async throws -> Outcome {
        let reader = ConfigReader(environment: environment)
        guard case .s3(let bucket, let signer, _, _) = try FileStorageConfiguration(reader: reader) else {
            throw ServiceError.badRequest("FILES_S3_URL (and its keys) must name the bucket to copy into")
        }
        let http = HTTPClientService.make(retryConnecting: false)
        do {
            let outcome = try await copy(
                dataDirectory: dataDirectory, environment: environment, to: S3Client(bucketURL: bucket, signer: signer, http: http.client),
                logger: logger, progress: progress)
            try await http.client.shutdown()
            return outcome
        } catch {
            try? await http.client.shutdown()
            throw error
        }
    }

    private static func copy(
        dataDirectory: String, environment: [String: String], to client: S3Client, logger: Logger, progress: @Sendable (String) -> Void
    ) async throws -> Outcome {
        var outcome = Outcome()
        for files in services {
            let local = files.references.map(\.area).reduce(into: [String: [String]]()) { found, area in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory + "/files/" + area)) ?? []
                found[area] = names.filter(FileStore.isSafeName).sorted()
            }
            guard local.values.contains(where: { !$0.isEmpty }) else { continue }
            let url = environment[files.databaseURL.name].flatMap { $0.isEmpty ? nil : $0 }
            let engine = try await files.open(url, dataDirectory + "/" + files.service.rawValue + ".sqlite", logger)
            var owners: [String: String] = [:]
            for reference in files.references {
                for (appID, path) in try await reference.paths(on: engine) where path.hasPrefix("/data/\(reference.area)/") {
                    owners[reference.area + "/" + path.dropFirst("/data/\(reference.area)/".count)] = appID
                }
            }
            let total = local.values.map(\.count).reduce(0, +)
            var done = 0
            for (area, names) in local.sorted(by: { $0.key < $1.key }) {
                for name in names {
                    done += 1
                    // Also after a file no record names, which `continue`s.
                    defer {
                        if done % 100 == 0 || done == total {
                            progress(
                                "\(files.service.rawValue): \(done)/\(total) files (copied \(outcome.copied), already there \(outcome.alreadyThere), named by no record \(outcome.unreferenced))"
                            )
                        }
                    }
                    guard let appID = owners[area + "/" + name], let kind = ImageKind.forFileName(name) else {
                        outcome.unreferenced += 1
                        continue
                    }
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: dataDirectory + "/files/" + area + "/" + name))
                    let key = FileKey(service: files.service, appID: appID, area: area, name: name).objectKey
                    if let head = try await client.head(key), head.size == bytes.count {
                        outcome.alreadyThere += 1
                    } else {
                        try await client.put(key, ByteBuffer(bytes: bytes), contentType: kind.contentType)
                        outcome.copied += 1
                    }
                }
            }
        }
        return outcome
    }
}
