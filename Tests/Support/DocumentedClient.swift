import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import XCTest

/// A test client that checks every answer against the profile's API document: a success
/// against its operation's answer schema, an error against the canonical error a service
/// answers (the gateway renders it in the app's dialect). One schema source, two uses: the
/// documents are built from the same `WireSchema`s.
package struct DocumentedClient: TestClientProtocol {
    let base: any TestClientProtocol
    let profile: Dialect

    package init(_ base: any TestClientProtocol, profile: Dialect) {
        self.base = base
        self.profile = profile
    }

    package var port: Int? { base.port }

    package func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        guard !path.hasPrefix("/internal/"), response.headers[.contentType]?.hasPrefix("application/json") == true else { return response }
        let violations = try DocumentCheck.violations(profile: profile, method: method.rawValue, path: path, status: Int(response.status.code),
                                                      json: Data(response.body.readableBytesView), from: .service)
        XCTAssert(violations.isEmpty, "\(method) \(uri) (\(response.status.code)) departs from the \(profile.rawValue) document: \(violations)")
        return response
    }
}
