import ArgumentParser
import AuthService
import Contracts
import Foundation
import ServiceKit
import Storage

@main
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth-svc", subcommands: [Serve.self, Apps.self], defaultSubcommand: Serve.self
    )

    struct Serve: AsyncParsableCommand {
        func run() async throws {
            await ServiceMain.run(.auth, assemble: AuthAssembly.assemble)
        }
    }

    struct Apps: AsyncParsableCommand {
        static let configuration = CommandConfiguration(subcommands: [Create.self, List.self])

        struct Create: AsyncParsableCommand {
            @Option(help: "display name") var name: String
            @Option(help: "family of shapes and errors: lslp, slp or quotehub") var profile: String = "lslp"
            @Option(help: "keep an existing key (a released app's); generated when omitted") var key: String?
            @Flag var refreshWithAccessTokenOnly = false
            @Flag var emptyAuthErrorBodies = false
            @Flag var socketAuthOptional = false
            @Option(help: "Apple client id (bundle or Services ID) accepted as identity-token audience; repeatable") var appleClientID: [String] = []
            @Option(help: "Kakao app id whose tokens this app accepts") var kakaoAppID = ""
            @Option(help: "a path prefix that names the app without a key (quotehub apps: /<mount>/…)") var mount: String?
            @Option(help: "Apple team id (Sign in with Apple by authorization code)") var appleTeamID: String?
            @Option(help: "Apple key id of the .p8 key") var appleKeyID: String?
            @Option(help: "the .p8 key file Apple issued (signs the code exchange's client secret)") var applePrivateKeyFile: String?

            func run() async throws {
                guard let dialect = Dialect(rawValue: profile) else { throw ValidationError("--profile must be lslp, slp or quotehub") }
                let flags = AppFlags(
                    refreshWithAccessTokenOnly: refreshWithAccessTokenOnly, emptyAuthErrorBodies: emptyAuthErrorBodies,
                    socketAuthOptional: socketAuthOptional
                )
                var appleKey: AppleSignInKey?
                if let appleTeamID, let appleKeyID, let applePrivateKeyFile {
                    appleKey = AppleSignInKey(
                        teamID: appleTeamID, keyID: appleKeyID, privateKeyPEM: try String(contentsOfFile: applePrivateKeyFile, encoding: .utf8))
                } else if appleTeamID != nil || appleKeyID != nil || applePrivateKeyFile != nil {
                    throw ValidationError("--apple-team-id, --apple-key-id and --apple-private-key-file go together")
                }
                print(
                    try await AuthAssembly.openAdmin(dataDirectory: dataDirectory(), databaseURL: databaseURL()).create(
                        name: name, profile: dialect, flags: flags, key: key, appleClientIDs: appleClientID, kakaoAppID: kakaoAppID, mount: mount,
                        appleKey: appleKey
                    ))
            }
        }

        struct List: AsyncParsableCommand {
            func run() async throws {
                for line in try await AuthAssembly.openAdmin(dataDirectory: dataDirectory(), databaseURL: databaseURL()).list() { print(line) }
            }
        }
    }
}

/// `AUTH_DATABASE_URL`, when the registry lives on PostgreSQL.
private func databaseURL() -> String? {
    ProcessInfo.processInfo.environment[AuthSettings.databaseURL.name].flatMap { $0.isEmpty ? nil : $0 }
}

private func dataDirectory() -> String {
    ProcessInfo.processInfo.environment[CommonSettings.dataDirectory.name].flatMap { $0.isEmpty ? nil : $0 }
        ?? CommonSettings.dataDirectory.defaultValue!
}
