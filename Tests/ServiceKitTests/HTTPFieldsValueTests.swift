import HTTPTypes
import ServiceKit
import XCTest

/// `HTTPFields.value(of:)`, the middlewares' lookup: the subscript's answer in every case.
final class HTTPFieldsValueTests: XCTestCase {
    func testAnswersAsTheSubscriptDoes() throws {
        let secret = try XCTUnwrap(HTTPField.Name("x-internal-secret"))
        var fields: HTTPFields = [.contentType: "application/json", .authorization: "Bearer abc"]
        fields.append(HTTPField(name: try XCTUnwrap(HTTPField.Name("X-Internal-Secret")), value: "s3cret"))
        XCTAssertEqual(fields.value(of: .authorization), "Bearer abc")
        XCTAssertEqual(fields.value(of: secret), "s3cret", "names compare without case")
        XCTAssertNil(fields.value(of: .accept))

        fields.append(HTTPField(name: .authorization, value: "Bearer def"))
        XCTAssertEqual(fields.value(of: .authorization), "Bearer abc, Bearer def", "a repeated field is joined, not the first taken")
        XCTAssertEqual(fields.value(of: .authorization), fields[.authorization])
        for name in [HTTPField.Name.contentType, .accept, secret] {
            XCTAssertEqual(fields.value(of: name), fields[name], "\(name)")
        }
    }
}
