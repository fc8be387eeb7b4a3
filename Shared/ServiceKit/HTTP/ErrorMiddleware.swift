import Contracts
import HTTPTypes
import Hummingbird

/// Maps every error to the canonical `{code, message}` body, once, for the whole process.
/// Unexpected errors are logged with the request id and answered 500 without internals.
package struct ErrorMiddleware: RouterMiddleware {
    package typealias Context = GlintRequestContext

    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return JSONCoding.response(status: error.status, body: error.canonical)
        } catch let error as StoreError {
            let mapped = ServiceError(error)
            return JSONCoding.response(status: mapped.status, body: mapped.canonical)
        } catch let error as any HTTPResponseError {
            // Hummingbird's and NIO's own (no route, undecodable JSON, a body over the limit).
            let canonical = Self.canonical(status: error.status, message: (error as? HTTPError)?.body)
            return JSONCoding.response(status: .init(code: canonical.code.status), body: canonical)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return JSONCoding.response(status: .internalServerError, body: CanonicalError(code: .internalError, message: "internal error"))
        }
    }

    /// Errors raised by Hummingbird itself (no route, body too large, undecodable JSON).
    static func canonical(status: HTTPResponse.Status, message: String?) -> CanonicalError {
        let code: ErrorCode =
            switch status.code {
            case 404, 405: .unknownRoute
            case 413: .payloadTooLarge
            case 401: .tokenInvalid
            case 500...: .internalError
            default: .badRequest
            }
        let message = code == .internalError ? "internal error" : (message ?? status.reasonPhrase)
        return CanonicalError(code: code, message: code == .unknownRoute ? "unknown route" : message)
    }
}
