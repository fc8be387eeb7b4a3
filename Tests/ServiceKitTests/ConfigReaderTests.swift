import Contracts
import ServiceKit
import XCTest

final class ConfigReaderTests: XCTestCase {
    let port = ConfigVariable("SOME_PORT", default: "80", "a port")
    let required = ConfigVariable("SOME_SECRET", default: nil, "a secret")

    func testDefaultsAndOverrides() throws {
        XCTAssertEqual(try ConfigReader(environment: [:]).int(port, in: 1...65535), 80)
        XCTAssertEqual(try ConfigReader(environment: ["SOME_PORT": "8081"]).int(port, in: 1...65535), 8081)
        XCTAssertEqual(try ConfigReader(environment: ["SOME_PORT": ""]).int(port, in: 1...65535), 80, "empty means unset")
    }

    func testErrorsNameTheVariable() {
        XCTAssertThrowsError(try ConfigReader(environment: ["SOME_PORT": "eighty"]).int(port, in: 1...65535)) { error in
            XCTAssertEqual((error as? ConfigurationError)?.variable, "SOME_PORT")
            XCTAssertTrue("\(error)".contains("SOME_PORT"))
        }
        XCTAssertThrowsError(try ConfigReader(environment: ["SOME_PORT": "70000"]).int(port, in: 1...65535))
        XCTAssertThrowsError(try ConfigReader(environment: [:]).string(required)) { error in
            XCTAssertEqual((error as? ConfigurationError)?.variable, "SOME_SECRET")
        }
    }

    func testACollectingReaderNamesEveryInvalidVariableAtOnce() throws {
        let flag = ConfigVariable("FLAG", default: "false", "")
        let reader = ConfigReader(environment: ["SOME_PORT": "eighty", "FLAG": "maybe"], collectingProblems: true)
        XCTAssertEqual(try reader.int(port, in: 1...65535), 1, "a stand-in, to read on")
        XCTAssertEqual(try reader.string(required), "")
        XCTAssertFalse(try reader.bool(flag))
        XCTAssertThrowsError(try reader.finish()) { error in
            XCTAssertEqual((error as? ConfigurationErrors)?.errors.map(\.variable), ["SOME_PORT", "SOME_SECRET", "FLAG"])
            XCTAssertEqual("\(error)".split(separator: "\n").count, 3, "a line each")
        }
        XCTAssertNoThrow(try ConfigReader(environment: [:], collectingProblems: true).finish(), "nothing wrong, nothing thrown")
    }

    func testBoolsAndURLs() throws {
        let flag = ConfigVariable("FLAG", default: "false", "")
        XCTAssertTrue(try ConfigReader(environment: ["FLAG": "yes"]).bool(flag))
        XCTAssertFalse(try ConfigReader(environment: [:]).bool(flag))
        XCTAssertThrowsError(try ConfigReader(environment: ["FLAG": "maybe"]).bool(flag))
        let url = ConfigVariable("BASE", default: "http://localhost:1/", "")
        XCTAssertEqual(try ConfigReader(environment: [:]).url(url), "http://localhost:1")
        XCTAssertThrowsError(try ConfigReader(environment: ["BASE": "ftp://x"]).url(url))
    }

    func testCommonConfiguration() throws {
        let environment = ["INTERNAL_SECRET": "0123456789abcdef0123", "AUTH_SVC_URL": "http://10.0.0.1:9000/"]
        let common = try CommonConfiguration(service: .chat, reader: ConfigReader(environment: environment))
        XCTAssertEqual(common.port, ServiceName.chat.defaultPort)
        XCTAssertEqual(common.url(of: .auth), "http://10.0.0.1:9000")
        XCTAssertEqual(common.url(of: .push), "http://127.0.0.1:8086")
        XCTAssertEqual(common.databasePath, "data/chat-svc.sqlite")
        XCTAssertThrowsError(try CommonConfiguration(service: .chat, reader: ConfigReader(environment: [:]))) { error in
            XCTAssertEqual((error as? ConfigurationError)?.variable, "INTERNAL_SECRET")
        }
        XCTAssertThrowsError(try CommonConfiguration(service: .chat, reader: ConfigReader(environment: ["INTERNAL_SECRET": "short"])))
        XCTAssertThrowsError(
            try CommonConfiguration(service: .chat, reader: ConfigReader(environment: environment.merging(["LOG_LEVEL": "loud"]) { $1 }))
        ) { error in
            XCTAssertEqual((error as? ConfigurationError)?.variable, "LOG_LEVEL")
        }
    }
}
