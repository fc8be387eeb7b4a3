import Prometheus
import Synchronization

/// Request counts and latencies into the process's registry, labelled by method, route pattern
/// (never the raw path: ids would explode the label set) and status. The metric objects are kept
/// after their first use: looking them up in the registry on every request cost more than the
/// rest of a forwarded request at the gateway. Used by the middleware and by code that answers
/// outside the router (the gateway's direct path).
package final class RequestMetrics: Sendable {
    // Built once: MetricNameDescriptor is an immutable value that predates Sendable annotations.
    nonisolated(unsafe) private static let counter = MetricNameDescriptor(
        metricName: "http_requests", unitName: "total", helpText: "HTTP requests answered")
    nonisolated(unsafe) private static let duration = MetricNameDescriptor(
        metricName: "http_request_duration", unitName: "seconds", helpText: "HTTP request latency")
    private static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    private struct Key: Hashable {
        var method: String
        var route: String
        var status: Int
    }

    private struct Meters {
        let count: Counter
        let duration: DurationHistogram
    }

    private let registry: PrometheusCollectorRegistry
    private let meters = Mutex<[Key: Meters]>([:])

    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// `now`: the request's end, when the caller has the time already.
    package func record(method: String, route: String, status: Int, since start: ContinuousClock.Instant, now: ContinuousClock.Instant = .now) {
        let elapsed = now - start
        let key = Key(method: method, route: route, status: status)
        let found = meters.withLock { meters in
            if let found = meters[key] { return found }
            // Routes and statuses are few; the bound only guards against a label that is not.
            if meters.count >= 4096 { meters.removeAll() }
            let made = Meters(
                count: registry.makeCounter(descriptor: Self.counter, labels: [("method", method), ("route", route), ("status", String(status))]),
                duration: registry.makeDurationHistogram(
                    descriptor: Self.duration, labels: [("method", method), ("route", route)], buckets: Self.buckets)
            )
            meters[key] = made
            return made
        }
        found.count.increment()
        found.duration.record(elapsed)
    }
}
