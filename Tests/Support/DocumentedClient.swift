import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import XCTest

/// A test client that checks every answer against the profile's API document: a success
/// against its operation's answer schema, an error against the canonical error a service
/// answers (the gateway renders it in the app's dialect). One schema source, two uses: the
/// documents are built from the same `WireSchema`s. The profile is the one the request names
/// (the gateway's `x-internal-app-profile`; none means `lslp`).
package struct DocumentedClient: TestClientProtocol {
    let base: any TestClientProtocol

    package init(_ base: any TestClientProtocol) {
        self.base = base
    }

    package var port: Int? { base.port }

    package func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        let profile = headers[HTTPField.Name(InternalHeader.appProfile)!].flatMap(Dialect.init(rawValue:)) ?? .lslp
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        guard !path.hasPrefix("/internal/"), response.headers[.contentType]?.hasPrefix("application/json") == true else { return response }
        let violations = try DocumentCheck.violations(
            profile: profile, method: method.rawValue, path: path, status: Int(response.status.code),
            json: Data(response.body.readableBytesView), from: .service)
        XCTAssert(violations.isEmpty, "\(method) \(uri) (\(response.status.code)) departs from the \(profile.rawValue) document: \(violations)")
        return response
    }
}

extension ApplicationProtocol {
    /// `test(.router)` through a `DocumentedClient`: every answer of the test checked against
    /// its profile's API document.
    package func contractTest<Value>(_ test: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await self.test(.router) { client in try await test(DocumentedClient(client)) }
    }
}
