import Contracts
import Foundation
import HTTPTypes
import Hummingbird

/// The one error type services throw at their edge: a canonical code and a short message that is
/// safe to show a client. Domain errors of a service convert to this in one place.
public struct ServiceError: HTTPResponseError, Equatable {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var status: HTTPResponse.Status { .init(code: code.status) }

    public var canonical: CanonicalError { CanonicalError(code: code, message: message) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONCoding.response(status: status, body: canonical)
    }

    public static func badRequest(_ message: String) -> ServiceError { .init(.badRequest, message) }
    public static func notFound(_ message: String) -> ServiceError { .init(.notFound, message) }
}
