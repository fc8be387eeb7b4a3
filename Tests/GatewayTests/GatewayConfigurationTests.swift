import Contracts
import Gateway
import ServiceKit
import TestSupport
import XCTest

final class GatewayConfigurationTests: XCTestCase {
    func testDefaultsAndValidation() throws {
        let defaults = try GatewayConfiguration(reader: ConfigReader(environment: [:]))
        XCTAssertEqual(defaults, GatewayConfiguration())
        XCTAssertThrowsError(try GatewayConfiguration(reader: ConfigReader(environment: ["GATEWAY_RATE_PER_IP": "-1"]))) { error in
            XCTAssertEqual((error as? ConfigurationError)?.variable, "GATEWAY_RATE_PER_IP")
        }
        XCTAssertThrowsError(try GatewayConfiguration(reader: ConfigReader(environment: ["GATEWAY_TRUST_FORWARDED_FOR": "sometimes"])))
    }
}
