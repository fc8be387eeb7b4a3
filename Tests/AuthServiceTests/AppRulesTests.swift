import ServiceKit
import TestSupport
import XCTest

@testable import AuthService

/// A new app's key and mount, once for both engines.
final class AppRulesTests: XCTestCase {
    func testAKeyNamesOneAppAndAMountServesOne() throws {
        XCTAssertNoThrow(try AppRules.checkNew(keyTaken: false, mountTaken: false))
        XCTAssertThrowsStoreError(.conflict("an app with that key exists"), try AppRules.checkNew(keyTaken: true, mountTaken: true))
        XCTAssertThrowsStoreError(.conflict("an app is mounted there"), try AppRules.checkNew(keyTaken: false, mountTaken: true))
    }
}
