import Hummingbird

/// Records every routed request in `RequestMetrics`.
package struct RequestMetricsMiddleware: RouterMiddleware {
    package typealias Context = GlintRequestContext
    let metrics: RequestMetrics

    package init(metrics: RequestMetrics) {
        self.metrics = metrics
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.record(method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code, since: start)
        return response
    }
}
