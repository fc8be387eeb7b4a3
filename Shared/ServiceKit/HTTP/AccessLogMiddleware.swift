import Hummingbird
import Logging

/// One line per request: method, path (never the query: it may carry cursors or tokens), status
/// and duration. The gateway logs at info; services log at debug to avoid doubled lines.
public struct AccessLogMiddleware: RouterMiddleware {
    public typealias Context = GlintRequestContext
    let level: Logger.Level

    public init(level: Logger.Level) {
        self.level = level
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        context.logger.log(level: level, "\(request.method) \(request.uri.path) \(response.status.code)", metadata: [
            "duration_ms": .stringConvertible((ms * 100).rounded() / 100),
        ])
        return response
    }
}
