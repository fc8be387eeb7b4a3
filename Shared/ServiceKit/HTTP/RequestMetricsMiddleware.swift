import Hummingbird
import Prometheus

/// Request counts and latencies into the process's registry, labelled by the matched route
/// pattern (never the raw path: ids would explode the label set).
public struct RequestMetricsMiddleware: RouterMiddleware {
    public typealias Context = GlintRequestContext
    let registry: PrometheusCollectorRegistry
    // Built once: MetricNameDescriptor is an immutable value that predates Sendable annotations.
    nonisolated(unsafe) private static let counter = MetricNameDescriptor(metricName: "http_requests", unitName: "total", helpText: "HTTP requests answered")
    nonisolated(unsafe) private static let duration = MetricNameDescriptor(metricName: "http_request_duration", unitName: "seconds", helpText: "HTTP request latency")
    private static let buckets: [Duration] = [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5)]

    public init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        Self.record(in: registry, method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code, since: start)
        return response
    }

    static func record(in registry: PrometheusCollectorRegistry, method: String, route: String, status: Int, since start: ContinuousClock.Instant) {
        meters(in: registry, method: method, route: route, status: status).record(since: start)
    }

    /// The metrics of one method, route and status; code that answers outside the router (the
    /// gateway's direct path) keeps them instead of looking them up per request.
    public static func meters(in registry: PrometheusCollectorRegistry, method: String, route: String, status: Int) -> RequestMeters {
        RequestMeters(
            count: registry.makeCounter(descriptor: counter, labels: [("method", method), ("route", route), ("status", String(status))]),
            duration: registry.makeDurationHistogram(descriptor: duration, labels: [("method", method), ("route", route)], buckets: buckets)
        )
    }
}

public struct RequestMeters: Sendable {
    let count: Counter
    let duration: DurationHistogram

    public func record(since start: ContinuousClock.Instant) {
        count.increment()
        duration.record(ContinuousClock.now - start)
    }
}
