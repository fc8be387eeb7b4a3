import Hummingbird

/// Records every routed request in `RequestMetrics`.
public struct RequestMetricsMiddleware: RouterMiddleware {
    public typealias Context = GlintRequestContext
    let metrics: RequestMetrics

    public init(metrics: RequestMetrics) {
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.record(method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code, since: start)
        return response
    }
}
