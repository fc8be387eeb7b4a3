import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// Turns a canonical error into what the calling app expects (API.md §0). This is the only
/// place dialects exist: `lslp` keeps the status and sends `{"message"}` (empty for the auth
/// family when the app has `empty_auth_error_bodies`); `slp` sends 400 `{"errorCode"}`.
enum DialectRenderer {
    struct MessageBody: Encodable { var message: String }
    struct ErrorCodeBody: Encodable { var errorCode: String }

    static func response(for error: CanonicalError, app: AppInfo?, headers: HTTPFields = [:]) -> Response {
        switch app?.profile ?? .lslp {
        case .lslp:
            let status = HTTPResponse.Status(code: error.code.status)
            if app?.flags.emptyAuthErrorBodies == true, error.code.isAuthFailure {
                return Response(status: status, headers: headers, body: .init())
            }
            return JSONCoding.response(status: status, body: MessageBody(message: error.message), headers: headers)
        case .slp:
            return JSONCoding.response(status: .badRequest, body: ErrorCodeBody(errorCode: error.code.slpCode), headers: headers)
        }
    }
}
