import APIDocs
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
    let routes: RouteTable

    package init(_ base: any TestClientProtocol, profile: Dialect) {
        self.base = base
        self.profile = profile
        routes = RouteTable.mounted[profile] ?? .standard
    }

    package var port: Int? { base.port }

    package func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        let response = try await base.executeRequest(uri: uri, method: method, headers: headers, body: body)
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? uri
        guard !path.hasPrefix("/internal/"), let match = routes.match(method: method.rawValue, path: path),
              let operation = APIDocument.operations(for: profile).first(where: { $0.method == method.rawValue && $0.pattern == match.pattern }),
              let answer = operation.answer, response.headers[.contentType]?.hasPrefix("application/json") == true
        else { return response }
        let schema = try (200..<300).contains(Int(response.status.code)) ? answer.schema() : WireSchema.of(CanonicalError.self)
        let violations = schema.violations(of: try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView), options: .fragmentsAllowed))
        XCTAssert(violations.isEmpty, "\(method) \(uri) (\(response.status.code)) departs from the \(profile.rawValue) document: \(violations)")
        return response
    }
}
