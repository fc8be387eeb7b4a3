import Contracts
import NIOCore
import ServiceKit

/// Every rule a client request meets at the gateway, in the one value that the routed path, the
/// direct path and socket admission all ask: which app it is for (its key), which service owns
/// its route, its limits (body size, rate) — here — and, in the extensions, the headers that cross
/// (`+Headers`) and the dialect answers come back in (`+Answers`). Nothing here reads or writes a
/// connection: callers pass what they read of a request and act on the decision. A class: every
/// request of every path asks it, and passing it on costs one reference, not a copy of each field.
final class GatewayPolicy: Sendable {
    let routes: RouteTable
    /// Tables of apps served under a mount (API.md §9), by profile, relative to the mount.
    let mountedRoutes: [Dialect: RouteTable] = RouteTable.mounted
    let apps: AppKeyCache
    let limiter: RateLimiter
    let configuration: GatewayConfiguration
    /// The internal secret's field line, sent to every service (the proof that a request came
    /// through here), written once.
    let internalSecretLine: ByteBuffer
    /// The `Server` of every answer.
    let serverName: String
    /// What every path reports a request's end to (errors and a sample, for operators).
    let requestLog: RequestLog

    init(
        routes: RouteTable, apps: AppKeyCache, limiter: RateLimiter, configuration: GatewayConfiguration, internalSecret: String,
        serverName: String, requestLog: RequestLog
    ) {
        self.routes = routes
        self.apps = apps
        self.limiter = limiter
        self.configuration = configuration
        var line = ByteBuffer()
        line.writeField(InternalHeader.secret, internalSecret)
        self.internalSecretLine = line
        self.serverName = serverName
        self.requestLog = requestLog
    }

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
        /// The rate limits' and the app cache's clock: a front loop gives its time as of its wake-up.
        var now = ContinuousClock.now
    }

    /// A request let through: where it goes, and for whom.
    struct Admission: Sendable {
        var route: RouteTable.Match
        var app: AppInfo?
        var clientIP: String
        /// Bytes of the mount (`/quotehub`) the service does not see: 0 for keyed routes.
        var mountLength = 0

        /// The target the service receives: the client's without the mount.
        func upstreamTarget(_ target: String) -> String {
            mountLength == 0 ? target : String(target.utf8.dropFirst(mountLength))!
        }
    }

    enum Decision {
        case admit(Admission)
        /// The refusal to answer (420, 444, 413, 429, or 503 when a key could not be resolved).
        case refuse(RenderedAnswer)
        /// A key the cache does not know: `admit` asks auth-svc.
        case resolveKey(String)
        /// The same for a path's first segment that may be an app's mount.
        case resolveMount(String)
    }

    /// The decision from what the key cache knows, without suspending; `resolved` is the answer
    /// auth-svc gave for the request's key, when it was asked; `local`, the deciding thread's
    /// copies of the cache, when it keeps them. Checks run key, route, key rule,
    /// body size, rate: a request refused before the rate check takes no rate-limit token, so
    /// asking again (the general path after the direct one, or after resolving a key) is free.
    func decide(_ request: Request, local: Local? = nil, resolved: AppInfo?? = nil, mounted: AppInfo?? = nil) -> Decision {
        let route = (local?.routes ?? routes).match(method: request.method, path: request.path)
        if route == nil, let mount = Self.mount(of: request.path) {
            switch mounted ?? local?.app(forMount: mount, in: apps, now: request.now) ?? apps.cachedMount(mount, now: request.now) {
            case .none: return .resolveMount(String(mount))
            case .some(.none): break
            case .some(.some(let app)): return decide(request, under: app, mountLength: mount.utf8.count + 1, local: local)
            }
        }
        var app: AppInfo?
        if route?.appKey != AppKeyRule.none, let key = request.appKey {
            // A key sent empty is a key no app has, wherever keys are optional too.
            guard !key.isEmpty else { return refuse(.appKeyInvalid, "unknown app key", app: nil) }
            switch resolved ?? local?.app(forKey: key, in: apps, now: request.now) ?? apps.cached(key, now: request.now) {
            case .none: return .resolveKey(key)
            case .some(.none): return refuse(.appKeyInvalid, "unknown app key", app: nil)
            case .some(.some(let found)): app = found
            }
        }
        guard let route else { return refuse(.unknownRoute, "unknown route", app: app) }
        if route.appKey == .required, app == nil { return refuse(.appKeyInvalid, "SeSACKey header required", app: nil) }
        return limited(request, Admission(route: route, app: app, clientIP: request.clientIP))
    }

    /// A request under an app's mount: the app is the mount's (keys are not looked at), the route
    /// the profile's, matched without the mount; an unknown path is the app's 404.
    private func decide(_ request: Request, under app: AppInfo, mountLength: Int, local: Local?) -> Decision {
        let path = request.path.utf8.dropFirst(mountLength)
        guard let route = (local?.mountedRoutes ?? mountedRoutes)[app.profile]?.match(method: request.method, path: Substring(path)) else {
            return refuse(.notFound, "no such path", app: app)
        }
        return limited(request, Admission(route: route, app: app, clientIP: request.clientIP, mountLength: mountLength))
    }

    /// The body-size and rate checks every admitted request passes last.
    private func limited(_ request: Request, _ admission: Admission) -> Decision {
        if let length = request.contentLength, length > configuration.maxBodyBytes {
            return .refuse(
                DialectRenderer.rendered(
                    for: CanonicalError(code: .payloadTooLarge, message: "request body too large"), app: admission.app,
                    paginated: admission.route.paginated
                ))
        }
        if let wait = wait(app: admission.app, clientIP: request.clientIP, now: request.now) {
            return .refuse(
                DialectRenderer.rendered(
                    for: CanonicalError(code: .rateLimited, message: "too many requests"), app: admission.app, paginated: admission.route.paginated,
                    headers: [.retryAfter: String(Int(wait.rounded(.up)))]
                ))
        }
        return .admit(admission)
    }

    /// A path's first segment when it could be a mount.
    static func mount(of path: Substring) -> Substring? {
        guard path.first == "/" else { return nil }
        let segment = path.dropFirst().prefix { $0 != "/" }
        return AppMountName.isValid(segment) ? segment : nil
    }

    /// `decide`, asking auth-svc first when the key is not in the cache: the admission, or the
    /// refusal to answer.
    func admit(_ request: Request) async throws(Refusal) -> Admission {
        var decision = decide(request)
        var (resolved, mounted): (AppInfo??, AppInfo??) = (nil, nil)
        do {
            // A path that is not a mount may still need its key resolved: at most two rounds.
            rounds: for _ in 0..<2 {
                switch decision {
                case .resolveKey(let key): resolved = .some(try await apps.resolve(key))
                case .resolveMount(let mount): mounted = .some(try await apps.resolveMount(mount))
                case .admit, .refuse: break rounds
                }
                decision = decide(request, resolved: resolved, mounted: mounted)
            }
        } catch {
            throw Refusal(DialectRenderer.rendered(for: ((error as? ServiceError) ?? .unavailable(.auth)).canonical, app: nil))
        }
        switch decision {
        case .admit(let admission): return admission
        case .refuse(let answer): throw Refusal(answer)
        case .resolveKey, .resolveMount: throw Refusal(unavailable(.auth, app: nil))
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
    private func wait(app: AppInfo?, clientIP: String, now: ContinuousClock.Instant) -> Double? {
        var wait = limiter.take(.ip(clientIP), limit: configuration.ipLimit, now: now)
        if wait == nil, let app { wait = limiter.take(.app(app.appID), limit: configuration.appLimit, now: now) }
        return wait
    }

    private func refuse(_ code: ErrorCode, _ message: String, app: AppInfo?) -> Decision {
        .refuse(DialectRenderer.rendered(for: CanonicalError(code: code, message: message), app: app))
    }
}
