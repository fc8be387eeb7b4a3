import Contracts
import Foundation
import GRDB
import Hummingbird
import Logging
import ServiceKit

/// Apps, users, sessions and profiles (API.md §1).
public enum AuthService {
    public static func buildApplication(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) async throws -> any ApplicationProtocol {
        let configuration = try AuthConfiguration(common: common, reader: reader)
        let database = try DatabaseFactory.openPool(at: common.databasePath, migrator: AuthMigrations.migrator)
        let signingKey = try SigningKey.loadOrCreate(at: configuration.signingKeyPath)
        let apps = AppRepository(database: database)
        try await createDevelopmentAppIfEmpty(apps, key: configuration.developmentAppKey)
        return build(common: common, logger: logger, database: database, signingKey: signingKey)
    }

    static func build(
        common: CommonConfiguration, logger: Logger, database: DatabasePool, signingKey: SigningKey
    ) -> Application<RouterResponder<GlintRequestContext>> {
        let internalRoutes = InternalRoutes(apps: AppRepository(database: database), signingKey: signingKey)
        return ServiceApplication.build(
            configuration: common, logger: logger,
            healthCheck: { try await DatabaseFactory.check(database) }
        ) { group in
            internalRoutes.register(on: group)
        }
    }

    /// A fresh installation gets one app so the suite is usable at once; its key is printed
    /// (not logged) because the newcomer needs it for the first request.
    static func createDevelopmentAppIfEmpty(_ apps: AppRepository, key: String?) async throws {
        guard try await apps.count() == 0 else { return }
        let app = try await apps.create(name: "Development", profile: .lslp, flags: AppFlags(), key: key)
        FileHandle.standardOutput.write(Data("Development app created. SeSACKey: \(app.apiKey)\n".utf8))
    }

    /// `auth-svc apps …`: the registry from the command line, on the same database file.
    public static func openAdmin(dataDirectory: String) throws -> AppAdmin {
        let path = dataDirectory + "/" + ServiceName.auth.rawValue + ".sqlite"
        return AppAdmin(repository: AppRepository(database: try DatabaseFactory.openPool(at: path, migrator: AuthMigrations.migrator)))
    }
}
