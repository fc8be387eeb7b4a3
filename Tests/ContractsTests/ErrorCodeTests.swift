import Contracts
import XCTest

final class ErrorCodeTests: XCTestCase {
    func testLslpStatusesOfAPIMd() {
        let expected: [ErrorCode: Int] = [
            .badRequest: 400, .tokenInvalid: 401, .forbidden: 403, .notFound: 404, .conflict: 409, .refreshInvalid: 418,
            .tokenExpired: 419, .appKeyInvalid: 420, .rateLimited: 429, .unknownRoute: 444, .notPermitted: 445,
            .payloadTooLarge: 413, .internalError: 500, .banned: 403,
        ]
        for (code, status) in expected { XCTAssertEqual(code.status, status, code.rawValue) }
    }

    func testSlpCodesOfAPIMd() {
        let expected: [ErrorCode: String] = [
            .loginFailed: "E03", .tokenExpired: "E05", .refreshInvalid: "E06", .badRequest: "E11", .conflict: "E12",
            .notFound: "E13", .notPermitted: "E14", .cannotLeave: "E15", .notEnoughCoins: "E21", .paymentInvalid: "E81",
            .internalError: "E99", .banned: "E05",
        ]
        for (code, slp) in expected { XCTAssertEqual(code.slpCode, slp, code.rawValue) }
    }

    /// A ban answers as issue 35 asks in each dialect: lslp 403, quotehub 403, slp E05.
    func testBannedInEveryDialect() {
        XCTAssertEqual(ErrorCode.banned.status, 403)
        XCTAssertEqual(ErrorCode.banned.quotehubStatus, 403)
        XCTAssertEqual(ErrorCode.banned.slpCode, "E05")
    }

    func testCanonicalBodyKeys() throws {
        let data = try JSONEncoder().encode(CanonicalError(code: .tokenExpired, message: "expired"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: String])
        XCTAssertEqual(object, ["code": "token_expired", "message": "expired"])
    }

    func testAuthFailureFamily() {
        XCTAssertEqual(ErrorCode.allCases.filter(\.isAuthFailure).map(\.status).sorted(), [401, 401, 403, 403, 419])
    }
}
