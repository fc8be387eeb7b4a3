import Hummingbird
import Logging
import ServiceKit

/// Health and metrics only until its own issue lands.
public enum GeoService {
    public static func buildApplication(_ common: CommonConfiguration, _ reader: ConfigReader, _ logger: Logger) throws -> any ApplicationProtocol {
        ServiceApplication.build(configuration: common, logger: logger) { _ in }
    }
}
