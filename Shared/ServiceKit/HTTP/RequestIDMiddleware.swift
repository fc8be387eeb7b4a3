import Contracts
import HTTPTypes
import Hummingbird

/// Takes the caller's `x-request-id` when it is a sane token, otherwise makes one; puts it in the
/// logger metadata and on the response, so one id follows a request across every hop.
package struct RequestIDMiddleware: RouterMiddleware {
    package typealias Context = GlintRequestContext
    package static let header = HTTPField.Name(InternalHeader.requestID)!

    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.requestID = Self.requestID(of: request.headers)
        context.logger[metadataKey: "request_id"] = .string(context.requestID)
        var response = try await next(request, context)
        response.headers[Self.header] = context.requestID
        return response
    }

    /// The caller's id when it is acceptable, else a new one.
    package static func requestID(of headers: HTTPFields) -> String {
        requestID(offered: headers.value(of: header))
    }

    /// `make`: a new id when the offered one is not taken (the process's sequence unless the caller has its own).
    package static func requestID(offered: String?, else make: () -> String = { ObjectID.sequential() }) -> String {
        offered.flatMap { isAcceptable($0) ? $0 : nil } ?? make()
    }

    static func isAcceptable(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
            }
    }
}
