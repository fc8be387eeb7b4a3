import AdminService
import ArgumentParser
import AuthService
import Contracts
import Foundation
import Launcher
import Logging
import ServiceKit

@main
struct Glint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glint", abstract: "Runs the Glint Backend suite locally.",
        subcommands: [Start.self, Serve.self, Admin.self, Backup.self, App.self, Files.self, Probe.self, SimulateFCM.self],
        defaultSubcommand: Start.self
    )

    struct Start: AsyncParsableCommand {
        @Option(help: "gateway port; services use the next seven (0 = free ports)") var portBase = ServiceName.defaultBasePort
        @Option(help: "folder for every service's SQLite file and stored files") var dataDir = "data"
        @Flag(help: "run a local PortOne simulator for payment-verify-svc (development without PortOne credentials)") var simulatePortone = false
        @Flag(help: "run a local Kakao book search simulator for market-svc (quotehub book search without a Kakao key)") var simulateKakao = false

        func run() async throws {
            try await Launcher.run(basePort: portBase, dataDirectory: dataDir, simulatePortOne: simulatePortone, simulateKakao: simulateKakao)
        }
    }

    struct Serve: AsyncParsableCommand {
        @Argument(help: "gateway, auth-svc, chat-svc, market-svc, geo-svc, payment-verify-svc, push-svc or admin-svc") var service: String

        func run() async throws {
            guard let name = ServiceName(rawValue: service) else { throw ValidationError("unknown service \(service)") }
            await ServiceMain.run(name, assemble: ServiceCatalog.assembler(for: name))
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Operators of the admin API (admin-svc).", subcommands: [Add.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Adds an operator; prints its one-time password and its TOTP secret as an otpauth:// URI (shown once).")
            @Option(help: "the suite's data folder (admin-svc's SQLite file; ADMIN_DATABASE_URL names PostgreSQL instead)") var dataDir = "data"
            @Option(help: "the operator's email (its sign-in name)") var email: String
            @Option(help: "owner (everything), admin (everything in its apps) or moderator (reports, content, users of its apps)") var role: String
            @Option(help: "comma-separated app names or ids the role covers (default: every app)") var apps = ""

            func run() async throws {
                guard let role = OperatorRole(rawValue: role) else { throw ValidationError("role must be owner, admin or moderator") }
                let databaseURL = ProcessInfo.processInfo.environment["ADMIN_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
                let added = try await AdminAssembly.addOperator(
                    dataDirectory: dataDir, databaseURL: databaseURL, email: email, role: role,
                    apps: apps.split(separator: ",").map(String.init))
                print("operator: \(email.lowercased()) (\(role.rawValue))")
                print("password: \(added.password)")
                print(added.totpURI)
            }
        }
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Snapshots of every service's SQLite file and the uploaded files, taken while the suite serves.",
            discussion: "Snapshots are kept in the folder --to/--from names, else in the bucket BACKUP_S3_URL names, else in DATA_DIR/backups.",
            subcommands: [Create.self, List.self, Verify.self, Restore.self])

        /// Where the snapshots are: the folder given, else what the environment names.
        static func store(dataDirectory: String, folder: String?) throws -> BackupStore {
            try BackupSettings(reader: ConfigReader()).store(dataDirectory: dataDirectory, folder: folder)
        }

        /// The stores: the data folder, and the databases the `<SVC>_DATABASE_URL` variables name.
        static func sources(dataDirectory: String) throws -> Backups.Sources {
            try BackupSettings(reader: ConfigReader()).sources(dataDirectory: dataDirectory)
        }

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Takes a snapshot; prints its id on the last line.")
            @Option(help: "the suite's data folder") var dataDir = "data"
            @Option(help: "the folder snapshots are kept in (default: BACKUP_S3_URL's bucket, else DATA_DIR/backups)") var to: String?
            @Option(help: "afterwards, keep only this many newest snapshots there") var keep: Int?

            func run() async throws {
                if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
                let (manifest, removed) = try await Backups.run(
                    from: try Backup.sources(dataDirectory: dataDir), into: try Backup.store(dataDirectory: dataDir, folder: to), keep: keep)
                for id in removed { print("removed \(id)") }
                for part in manifest.parts where part.engine != nil {
                    let rows = part.rowCounts?.values.reduce(0, +) ?? 0
                    print("\(part.name): \(part.bytes) bytes, \(rows) rows, \(part.migrations?.count ?? 0) migrations")
                }
                print("\(manifest.parts.filter { $0.engine == nil }.count) uploaded files")
                print(manifest.id)
            }
        }

        /// `--data-dir` and `--from`, as list, verify and restore read them.
        struct Source: ParsableArguments {
            @Option(help: "the suite's data folder") var dataDir = "data"
            @Option(help: "the folder snapshots are kept in (default: BACKUP_S3_URL's bucket, else DATA_DIR/backups)") var from: String?

            func store() throws -> BackupStore { try Backup.store(dataDirectory: dataDir, folder: from) }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The snapshots kept, oldest first.")
            @OptionGroup var source: Source

            func run() async throws {
                for manifest in try await Backups.list(in: try source.store()) {
                    let bytes = manifest.parts.map(\.bytes).reduce(0, +)
                    print("\(manifest.id)  \(GlintDate.string(fromMilliseconds: manifest.startedAt))  \(manifest.parts.count) parts  \(bytes) bytes")
                }
            }
        }

        struct Verify: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Checks a snapshot: every part's checksum against the manifest, each store's integrity; exits 1 when it finds a problem.")
            @Argument(help: "the snapshot's id") var id: String
            @OptionGroup var source: Source

            func run() async throws {
                let problems = try await Backups.verify(
                    id: id, in: try source.store(), tools: try Backup.sources(dataDirectory: source.dataDir).tools)
                guard problems.isEmpty else {
                    for problem in problems { print(problem) }
                    throw ExitCode(1)
                }
                print("\(id): ok")
            }
        }

        struct Restore: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "restore",
                abstract: "Writes a snapshot into a new data folder (checked first; one from a newer build is refused); start the suite on it.")
            @Argument(help: "the snapshot's id") var id: String
            @Option(
                help:
                    "the new data folder (no stores or files in it yet); stores dumped from PostgreSQL go to the empty databases the *_DATABASE_URL variables name"
            ) var dataDir: String
            @Option(help: "the folder snapshots are kept in (default: BACKUP_S3_URL's bucket, else DATA_DIR/backups)") var from: String?

            func run() async throws {
                let restored = try await Backups.restore(
                    id: id, into: try Backup.sources(dataDirectory: dataDir), from: try Backup.store(dataDirectory: dataDir, folder: from))
                for (store, count) in restored.redelivered.sorted(by: { $0.key < $1.key }) where count > 0 {
                    print("\(store): \(count) outbox messages delivered since the snapshot began go again")
                }
                print("restored \(restored.manifest.id) into \(dataDir): \(restored.manifest.parts.count) parts")
            }
        }
    }

    struct Files: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Uploaded files.", subcommands: [Migrate.self])

        struct Migrate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Copies DATA_DIR/files into the bucket FILES_S3_URL names (again is safe); then start the services with it set.")
            @Option(help: "the suite's data folder") var dataDir = "data"
            @Option(help: "where to: s3 (the bucket of FILES_S3_URL, FILES_S3_ACCESS_KEY_ID, FILES_S3_SECRET_ACCESS_KEY)") var to: String

            func run() async throws {
                guard to == "s3" else { throw ValidationError("--to must be s3") }
                let outcome = try await FileMigration.toBucket(
                    dataDirectory: dataDir, environment: ProcessInfo.processInfo.environment, logger: Logger(label: "glint files")
                ) { line in print(line) }
                print(
                    "done: copied \(outcome.copied), already there \(outcome.alreadyThere), named by no record \(outcome.unreferenced) (left on disk)"
                )
            }
        }
    }

    struct App: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One app's records and uploads, moved between deployments (README: \"Moving an app\").",
            subcommands: [Export.self, Import.self])

        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Writes every record of one app (sessions left out) and the files they name into one archive.")
            @Option(help: "the suite's data folder; stores on PostgreSQL are where the *_DATABASE_URL variables say") var dataDir = "data"
            @Option(help: "the app's name, id or mount") var app: String
            @Option(help: "the archive to write (.tar.gz)") var to: String

            func run() async throws {
                let reader = ConfigReader()
                let manifest = try await AppExport.run(
                    app: app, from: try Backup.sources(dataDirectory: dataDir),
                    files: try UploadedFiles.configured(dataDirectory: dataDir, reader: reader), to: to)
                for store in manifest.stores {
                    print("\(store.service): " + store.tables.filter { $0.rows > 0 }.map { "\($0.rows) \($0.name)" }.joined(separator: ", "))
                }
                if !manifest.missingFiles.isEmpty { print("\(manifest.missingFiles.count) files named by records were not there") }
                print("exported \(manifest.app.name) (\(manifest.app.id)) with \(manifest.files.count) files to \(to)")
            }
        }

        struct Import: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Loads an app's export into this deployment, ids kept; refused when the deployment holds any record of the app.")
            @Option(help: "the suite's data folder; stores on PostgreSQL are where the *_DATABASE_URL variables say") var dataDir = "data"
            @Option(help: "the archive `glint app export` wrote") var from: String
            @Option(help: "a new name for the app") var name: String?
            @Option(help: "a new mount for the app (quotehub apps are named by theirs)") var mount: String?
            @Flag(help: "give the app a new key (printed); the exported one then opens nothing here") var newKey = false

            func run() async throws {
                let outcome = try await AppImport.run(
                    from: from, into: try Backup.sources(dataDirectory: dataDir),
                    files: try UploadedFiles.configured(dataDirectory: dataDir, reader: ConfigReader()),
                    app: try ImportedApp(name: name, mount: mount, newKey: newKey))
                for (table, rows) in outcome.rows.sorted(by: { $0.key < $1.key }) where rows > 0 { print("\(table): \(rows)") }
                if let key = outcome.newKey { print("new key: \(key)") }
                print("imported \(outcome.manifest.app.name) (\(outcome.manifest.app.id)) with \(outcome.files) files")
            }
        }
    }

    struct SimulateFCM: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate-fcm", abstract: "Runs an FCM HTTP v1 simulator (benchmarks, development) until interrupted."
        )
        @Option(help: "where to write the service-account JSON push-svc should use") var accountFile: String

        func run() async throws {
            try await Launcher.simulateFCM(accountFile: accountFile)
        }
    }

    struct Probe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Exits 0 when the URL answers 200 (container health checks).")
        @Argument var url: String

        func run() async throws {
            guard await HealthProbe.isHealthy(url) else { throw ExitCode(1) }
        }
    }
}
