import Contracts
import Foundation
import HTTPTypes
import Logging
import ServiceKit

/// Configuration for in-process tests: a temporary data folder and a known internal secret.
package enum TestEnvironment {
    package static let internalSecret = "test-internal-secret-0123456789"

    package static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "glint-test-" + ObjectID.generate()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        TestScratch.run.keep(folder: path)
        return path
    }

    package static func common(_ service: ServiceName, dataDirectory: String) -> CommonConfiguration {
        CommonConfiguration(service: service, port: 0, dataDirectory: dataDirectory, internalSecret: internalSecret)
    }

    package static var logger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }

    /// Headers of a call coming from the gateway for `appID`.
    package static func internalHeaders(appID: String? = nil) -> [(String, String)] {
        var headers = [(InternalHeader.secret, internalSecret)]
        if let appID { headers.append((InternalHeader.appID, appID)) }
        return headers
    }
}

extension TestEnvironment {
    /// The same headers as `HTTPFields`, for `app.test(.router)` clients, plus any extra ones.
    package static func fields(app: String? = "app-1", extra: [(String, String)] = []) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in internalHeaders(appID: app) + extra { fields.append(HTTPField(name: .init(name)!, value: value)) }
        return fields
    }
}
