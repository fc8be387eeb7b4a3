import Contracts
import ServiceKit

/// Every rule a client request meets at the gateway, in the one value that the routed path, the
/// direct path and socket admission all ask: which app it is for (its key), which service owns
/// its route, its limits (body size, rate) — here — and, in the extensions, the headers that cross
/// (`+Headers`) and the dialect answers come back in (`+Answers`). Nothing here reads or writes a
/// connection: callers pass what they read of a request and act on the decision.
struct GatewayPolicy: Sendable {
    let routes: RouteTable
    let apps: AppKeyCache
    let limiter: RateLimiter
    let configuration: GatewayConfiguration
    /// Sent to every service: the proof that a request came through here.
    let internalSecret: String
    /// The `Server` of every answer.
    let serverName: String

    /// What the policy reads of a request.
    struct Request {
        var method: String
        /// Without the query.
        var path: Substring
        /// `SeSACKey`, as sent.
        var appKey: String?
        /// From `clientIP(forwardedFor:remoteIP:)`.
        var clientIP: String
        var contentLength: Int?
    }

    /// A request let through: where it goes, and for whom.
    struct Admission: Sendable {
        var route: RouteTable.Match
        var app: AppInfo?
        var clientIP: String
    }

    enum Decision {
        case admit(Admission)
        /// The refusal to answer (420, 444, 413, 429, or 503 when a key could not be resolved).
        case refuse(RenderedAnswer)
        /// A key the cache does not know: `admit` asks auth-svc.
        case resolveKey(String)
    }

    /// The decision from what the key cache knows, without suspending; `resolved` is the answer
    /// auth-svc gave for the request's key, when it was asked. Checks run key, route, key rule,
    /// body size, rate: a request refused before the rate check takes no rate-limit token, so
    /// asking again (the general path after the direct one, or after resolving a key) is free.
    func decide(_ request: Request, resolved: AppInfo?? = nil) -> Decision {
        let route = routes.match(method: request.method, path: request.path)
        var app: AppInfo?
        if route?.appKey != AppKeyRule.none, let key = request.appKey {
            // A key sent empty is a key no app has, wherever keys are optional too.
            guard !key.isEmpty else { return refuse(.appKeyInvalid, "unknown app key", app: nil) }
            switch resolved ?? apps.cached(key) {
            case .none: return .resolveKey(key)
            case .some(.none): return refuse(.appKeyInvalid, "unknown app key", app: nil)
            case .some(.some(let found)): app = found
            }
        }
        guard let route else { return refuse(.unknownRoute, "unknown route", app: app) }
        if route.appKey == .required, app == nil { return refuse(.appKeyInvalid, "SeSACKey header required", app: nil) }
        if let length = request.contentLength, length > configuration.maxBodyBytes {
            return refuse(.payloadTooLarge, "request body too large", app: app)
        }
        if let wait = wait(app: app, clientIP: request.clientIP) {
            return .refuse(DialectRenderer.rendered(
                for: CanonicalError(code: .rateLimited, message: "too many requests"), app: app, headers: [.retryAfter: String(Int(wait.rounded(.up)))]
            ))
        }
        return .admit(Admission(route: route, app: app, clientIP: request.clientIP))
    }

    /// `decide`, asking auth-svc first when the key is not in the cache: the admission, or the
    /// refusal to answer.
    func admit(_ request: Request) async throws(Refusal) -> Admission {
        var decision = decide(request)
        if case .resolveKey(let key) = decision {
            do {
                decision = decide(request, resolved: .some(try await apps.resolve(key)))
            } catch {
                throw Refusal(DialectRenderer.rendered(for: ((error as? ServiceError) ?? .unavailable(.auth)).canonical, app: nil))
            }
        }
        switch decision {
        case .admit(let admission): return admission
        case .refuse(let answer): throw Refusal(answer)
        case .resolveKey: throw Refusal(unavailable(.auth, app: nil))
        }
    }

    /// A request refused, with the answer to give.
    struct Refusal: Error {
        let answer: RenderedAnswer

        init(_ answer: RenderedAnswer) {
            self.answer = answer
        }
    }

    /// The caller's address: the socket's peer, or the first `X-Forwarded-For` entry behind a
    /// trusted proxy.
    func clientIP(forwardedFor: String?, remoteIP: String?) -> String {
        if configuration.trustForwardedFor, let forwarded = forwardedFor, let first = forwarded.split(separator: ",").first {
            return first.trimmingCharacters(in: .whitespaces)
        }
        return remoteIP ?? "unknown"
    }

    /// Both buckets (client address, app) must have a token: nil when they do, else seconds until one is.
    private func wait(app: AppInfo?, clientIP: String) -> Double? {
        var wait = limiter.take("ip:" + clientIP, limit: configuration.ipLimit)
        if wait == nil, let app { wait = limiter.take("app:" + app.appID, limit: configuration.appLimit) }
        return wait
    }

    private func refuse(_ code: ErrorCode, _ message: String, app: AppInfo?) -> Decision {
        .refuse(DialectRenderer.rendered(for: CanonicalError(code: code, message: message), app: app))
    }
}
