import ServiceKit

/// The gateway's own environment variables.
package enum GatewaySettings {
    package static let maxBodyBytes = ConfigVariable(
        "GATEWAY_MAX_BODY_BYTES", default: "33554432", "largest request body accepted (413 above); uploads are at most 30 MB of files")
    package static let ratePerApp = ConfigVariable(
        "GATEWAY_RATE_PER_APP", default: "500", "requests per second one app key may make (token bucket refill)")
    package static let burstPerApp = ConfigVariable("GATEWAY_BURST_PER_APP", default: "1000", "burst size of the per-app bucket")
    package static let ratePerIP = ConfigVariable("GATEWAY_RATE_PER_IP", default: "50", "requests per second one client address may make")
    package static let burstPerIP = ConfigVariable("GATEWAY_BURST_PER_IP", default: "100", "burst size of the per-address bucket")
    package static let appCacheSeconds = ConfigVariable(
        "GATEWAY_APP_CACHE_SECONDS", default: "30", "how long a resolved app key is cached (unknown keys: at most 5 s)")
    package static let upstreamTimeoutSeconds = ConfigVariable(
        "GATEWAY_UPSTREAM_TIMEOUT_SECONDS", default: "60",
        "how long a service may take to answer a forwarded request (and, for a streamed answer, to send its next part while the client reads)")
    package static let maxUpstreamConnections = ConfigVariable(
        "GATEWAY_MAX_UPSTREAM_CONNECTIONS", default: "128", "keep-alive connections to each service process, all paths together")
    package static let idleTimeoutSeconds = ConfigVariable(
        "GATEWAY_IDLE_TIMEOUT_SECONDS", default: "75",
        "a client connection with no request under way is closed after this long (also ends request heads that never complete, and the rest of an upload still arriving after its answer); longer than clients keep idle connections, so they close first"
    )
    package static let publicURL = ConfigVariable(
        "GATEWAY_PUBLIC_URL", default: "",
        "the scheme and host clients reach the gateway at (e.g. https://api.example.com): mounted apps' absolute file URLs start with it; empty = http:// and the request's Host"
    )
    package static let trustForwardedFor = ConfigVariable(
        "GATEWAY_TRUST_FORWARDED_FOR", default: "false", "take the client address from X-Forwarded-For (only behind a trusted proxy)")

    package static let requestLogErrors = ConfigVariable(
        "GATEWAY_REQUEST_LOG_ERRORS", default: "5000", "requests that ended in 4xx/5xx the request log keeps (the oldest go first)")
    package static let requestLogSampleEvery = ConfigVariable(
        "GATEWAY_REQUEST_LOG_SAMPLE_EVERY", default: "100", "the request log keeps one in this many successful requests (0: none)")
    package static let requestLogSampled = ConfigVariable(
        "GATEWAY_REQUEST_LOG_SAMPLED", default: "1000", "sampled successful requests the request log keeps")
    package static let requestLogRetentionMinutes = ConfigVariable(
        "GATEWAY_REQUEST_LOG_RETENTION_MINUTES", default: "1440", "how long the request log shows an entry")

    package static var all: [ConfigVariable] {
        [
            maxBodyBytes, ratePerApp, burstPerApp, ratePerIP, burstPerIP, appCacheSeconds, upstreamTimeoutSeconds, maxUpstreamConnections,
            idleTimeoutSeconds, trustForwardedFor, publicURL, SocketHandoff.path, requestLogErrors, requestLogSampleEvery, requestLogSampled,
            requestLogRetentionMinutes,
        ]
    }
}

package struct GatewayConfiguration: Sendable, Equatable {
    package var maxBodyBytes: Int
    package var appLimit: RateLimit
    package var ipLimit: RateLimit
    package var appCacheSeconds: Int
    package var upstreamTimeoutSeconds: Int
    package var maxUpstreamConnections: Int
    package var idleTimeoutSeconds: Int
    package var trustForwardedFor: Bool
    /// Without a trailing slash; empty = `http://` + the request's `Host`.
    package var publicURL = ""
    /// chat-svc's handoff socket (`SocketHandoff`); nil: sockets are spliced.
    package var handoffPath: String?
    var requestLog = RequestLog.Settings()

    package init(
        maxBodyBytes: Int = 32 << 20, appLimit: RateLimit = .init(perSecond: 500, burst: 1000),
        ipLimit: RateLimit = .init(perSecond: 50, burst: 100), appCacheSeconds: Int = 30,
        upstreamTimeoutSeconds: Int = 60, maxUpstreamConnections: Int = 128, idleTimeoutSeconds: Int = 75, trustForwardedFor: Bool = false
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.appLimit = appLimit
        self.ipLimit = ipLimit
        self.appCacheSeconds = appCacheSeconds
        self.upstreamTimeoutSeconds = upstreamTimeoutSeconds
        self.maxUpstreamConnections = maxUpstreamConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.trustForwardedFor = trustForwardedFor
    }

    package init(reader: ConfigReader) throws {
        self.init(
            maxBodyBytes: try reader.int(GatewaySettings.maxBodyBytes, in: 1024...(1 << 30)),
            appLimit: .init(
                perSecond: try reader.double(GatewaySettings.ratePerApp, in: 0.01...1_000_000),
                burst: try reader.double(GatewaySettings.burstPerApp, in: 1...10_000_000)
            ),
            ipLimit: .init(
                perSecond: try reader.double(GatewaySettings.ratePerIP, in: 0.01...1_000_000),
                burst: try reader.double(GatewaySettings.burstPerIP, in: 1...10_000_000)
            ),
            appCacheSeconds: try reader.int(GatewaySettings.appCacheSeconds, in: 0...3600),
            upstreamTimeoutSeconds: try reader.int(GatewaySettings.upstreamTimeoutSeconds, in: 1...3600),
            maxUpstreamConnections: try reader.int(GatewaySettings.maxUpstreamConnections, in: 1...10_000),
            idleTimeoutSeconds: try reader.int(GatewaySettings.idleTimeoutSeconds, in: 1...3600),
            trustForwardedFor: try reader.bool(GatewaySettings.trustForwardedFor)
        )
        var url = try reader.string(GatewaySettings.publicURL)
        if !(url.isEmpty || ((url.hasPrefix("https://") || url.hasPrefix("http://")) && url.count <= 200 && !url.contains(" "))) {
            url = try reader.refuse(GatewaySettings.publicURL, "must be an http(s) URL", standIn: "")
        }
        publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        let handoff = try reader.string(SocketHandoff.path)
        handoffPath = handoff.isEmpty ? nil : handoff
        requestLog = RequestLog.Settings(
            errors: try reader.int(GatewaySettings.requestLogErrors, in: 0...1_000_000),
            sampled: try reader.int(GatewaySettings.requestLogSampled, in: 0...1_000_000),
            sampleEvery: try reader.int(GatewaySettings.requestLogSampleEvery, in: 0...1_000_000),
            retention: .seconds(try reader.int(GatewaySettings.requestLogRetentionMinutes, in: 1...(30 * 1440)) * 60))
        try reader.finish()
    }
}
