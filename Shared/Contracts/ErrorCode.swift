/// The canonical error vocabulary. Services only ever speak these codes; the gateway turns them
/// into the caller app's dialect (API.md §0): `lslp` uses `status`, `slp` uses `slpCode`.
package enum ErrorCode: String, Codable, Sendable, CaseIterable {
    case badRequest = "bad_request"
    case loginFailed = "login_failed"
    case tokenInvalid = "token_invalid"
    case forbidden
    /// The user is banned by an operator: lslp and quotehub 403, slp E05 (the one token code its
    /// app acts on; its refresh then fails with E06).
    case banned
    case notFound = "not_found"
    /// A user asked for by id does not exist (the workspace apps handle this code, E03, there).
    case userNotFound = "user_not_found"
    case conflict
    case refreshInvalid = "refresh_invalid"
    case tokenExpired = "token_expired"
    case appKeyInvalid = "app_key_invalid"
    case rateLimited = "rate_limited"
    case unknownRoute = "unknown_route"
    case notPermitted = "not_permitted"
    case cannotLeave = "cannot_leave"
    case payloadTooLarge = "payload_too_large"
    case notEnoughCoins = "not_enough_coins"
    case paymentInvalid = "payment_invalid"
    case paymentProcessed = "payment_processed"
    case unavailable
    /// A provider we call for the client (Kakao's book search) failed or answered nonsense.
    case upstreamFailed = "upstream_failed"
    case internalError = "internal"

    /// HTTP status in the default `lslp` dialect (and what services answer internally).
    package var status: Int {
        switch self {
        case .badRequest, .notEnoughCoins, .paymentInvalid: 400
        case .loginFailed, .tokenInvalid: 401
        case .forbidden, .banned: 403
        case .notFound, .userNotFound: 404
        case .conflict, .paymentProcessed: 409
        case .payloadTooLarge: 413
        case .refreshInvalid: 418
        case .tokenExpired: 419
        case .appKeyInvalid: 420
        case .rateLimited: 429
        case .unknownRoute: 444
        case .notPermitted, .cannotLeave: 445
        case .unavailable: 503
        case .upstreamFailed: 502
        case .internalError: 500
        }
    }

    /// The status of API.md §9 (quotehub apps): 400 invalid or duplicate, 401 for any token or
    /// sign-in problem (the client renews), 403 not yours, 404, and the transport's own.
    package var quotehubStatus: Int {
        switch self {
        case .badRequest, .conflict, .notEnoughCoins, .paymentInvalid, .paymentProcessed: 400
        case .loginFailed, .tokenInvalid, .tokenExpired, .refreshInvalid, .appKeyInvalid, .forbidden: 401
        case .notPermitted, .cannotLeave, .banned: 403
        case .notFound, .userNotFound, .unknownRoute: 404
        case .payloadTooLarge, .rateLimited, .unavailable, .upstreamFailed, .internalError: status
        }
    }

    /// The code a bare status stands for: an error answered without a canonical body (by a
    /// framework, say) is still rendered in the caller's dialect.
    package static func standing(for status: Int) -> ErrorCode {
        if status == 401 { return .tokenInvalid }
        return allCases.first { $0.status == status } ?? (status >= 500 ? .internalError : .badRequest)
    }

    /// The `errorCode` of the `slp` dialect. E01/E97/E98 are the workspace API's codes for a bad
    /// key, an unknown route and too many calls; the rest are listed in API.md §0. Every access
    /// token that cannot be used is E05, not only an expired one: E05 is the one token code the
    /// app recovers from (it refreshes, and signs out when that fails), API.md §8.
    package var slpCode: String {
        switch self {
        case .appKeyInvalid: "E01"
        case .loginFailed, .forbidden, .userNotFound: "E03"
        case .tokenInvalid, .tokenExpired, .banned: "E05"
        case .refreshInvalid: "E06"
        case .badRequest, .payloadTooLarge: "E11"
        case .conflict: "E12"
        case .notFound: "E13"
        case .notPermitted: "E14"
        case .cannotLeave: "E15"
        case .notEnoughCoins: "E21"
        case .paymentInvalid: "E81"
        case .paymentProcessed: "E82"
        case .unknownRoute: "E97"
        case .rateLimited: "E98"
        case .unavailable, .upstreamFailed, .internalError: "E99"
        }
    }

    /// Codes whose body the `empty_auth_error_bodies` flag empties (the 401/403/419 family).
    package var isAuthFailure: Bool {
        switch self.status {
        case 401, 403, 419: true
        default: false
        }
    }
}
extension ErrorCode: WireEnum {}
