import Contracts
import Foundation
import HTTPTypes
import Hummingbird

/// The one error type services throw at their edge: a canonical code and a short message that is
/// safe to show a client. Domain errors of a service convert to this in one place.
package struct ServiceError: HTTPResponseError, Equatable {
    package var code: ErrorCode
    package var message: String

    package init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    package var status: HTTPResponse.Status { .init(code: code.status) }

    package var canonical: CanonicalError { CanonicalError(code: code, message: message) }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONCoding.response(status: status, body: canonical)
    }

    /// A store's failure as the caller gets it.
    package init(_ error: StoreError) {
        switch error {
        case .notFound(let message): self.init(.notFound, message)
        case .conflict(let message): self.init(.conflict, message)
        case .notPermitted(let message): self.init(.notPermitted, message)
        case .callerGone(let message): self.init(.forbidden, message)
        }
    }

    package static func badRequest(_ message: String) -> ServiceError { .init(.badRequest, message) }
    package static func notFound(_ message: String) -> ServiceError { .init(.notFound, message) }
    /// What a caller gets when `service` cannot be reached.
    package static func unavailable(_ service: ServiceName) -> ServiceError { .init(.unavailable, "\(service.rawValue) unavailable") }
}
