import ServiceKit

/// auth-svc's own environment variables.
public enum AuthSettings {
    public static let signingKeyFile = ConfigVariable("AUTH_SIGNING_KEY_FILE", default: "", "PEM file of the ES256 signing key; default <DATA_DIR>/auth-signing-key.pem, created on first start")
    public static let developmentAppKey = ConfigVariable("AUTH_DEV_APP_KEY", default: "", "key of the development app created on first start with no apps (random when empty)")

    public static var all: [ConfigVariable] { [signingKeyFile, developmentAppKey] }
}

struct AuthConfiguration: Sendable {
    var signingKeyPath: String
    var developmentAppKey: String?

    init(common: CommonConfiguration, reader: ConfigReader) throws {
        let file = try reader.string(AuthSettings.signingKeyFile)
        signingKeyPath = file.isEmpty ? common.dataDirectory + "/auth-signing-key.pem" : file
        let devKey = try reader.string(AuthSettings.developmentAppKey)
        if !devKey.isEmpty, !AppKey.isAcceptable(devKey) {
            throw ConfigurationError(variable: AuthSettings.developmentAppKey.name, problem: "must be 8-128 printable ASCII characters without spaces")
        }
        developmentAppKey = devKey.isEmpty ? nil : devKey
    }
}
