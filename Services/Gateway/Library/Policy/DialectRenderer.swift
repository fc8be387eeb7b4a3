import Contracts
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceKit

/// Turns a canonical error into what the calling app expects (API.md §0). This is the only
/// place dialects exist: `lslp` keeps the status and sends `{"message"}` (empty for the auth
/// family when the app has `empty_auth_error_bodies`); `slp` sends 400 `{"errorCode"}`;
/// `quotehub` sends §9's statuses in the envelope (`data: []` and a `pagination` on a paginated
/// route).
enum DialectRenderer {
    static func response(for error: CanonicalError, app: AppInfo?, headers: HTTPFields = [:]) -> Response {
        rendered(for: error, app: app, headers: headers).response
    }

    static func rendered(for error: CanonicalError, app: AppInfo?, paginated: Bool = false, headers: HTTPFields = [:]) -> RenderedAnswer {
        var fields = headers
        switch app?.profile ?? .lslp {
        case .lslp:
            let status = HTTPResponse.Status(code: error.code.status)
            if app?.flags.emptyAuthErrorBodies == true, error.code.isAuthFailure {
                return RenderedAnswer(status: status, headers: fields, body: ByteBuffer())
            }
            fields[.contentType] = JSONCoding.contentType
            return RenderedAnswer(status: status, headers: fields, body: JSONCoding.encode(MessageAnswer(message: error.message)))
        case .slp:
            fields[.contentType] = JSONCoding.contentType
            return RenderedAnswer(status: .badRequest, headers: fields, body: JSONCoding.encode(SlpErrorAnswer(errorCode: error.code.slpCode)))
        case .quotehub:
            fields[.contentType] = JSONCoding.contentType
            let body =
                paginated
                ? JSONCoding.encode(
                    PageEnvelope<NoPayload>(
                        success: false, message: error.message, data: [], pagination: Pagination(currentPage: 1, pageSize: 10, totalItems: 0)))
                : JSONCoding.encode(Envelope<NoPayload>(success: false, message: error.message, data: nil))
            return RenderedAnswer(status: HTTPResponse.Status(code: error.code.quotehubStatus), headers: fields, body: body)
        }
    }
}

/// An answer the gateway has whole: rendered errors and small service answers.
struct RenderedAnswer: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer

    var response: Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
