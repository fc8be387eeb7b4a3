import Hummingbird
import Logging

/// One line per request: method, path (never the query: it may carry cursors or tokens), status
/// and duration. The gateway logs at info; services log at debug to avoid doubled lines.
package struct AccessLogMiddleware: RouterMiddleware {
    package typealias Context = GlintRequestContext
    let level: Logger.Level

    package init(level: Logger.Level) {
        self.level = level
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        Self.log(to: context.logger, level: level, method: request.method, path: request.uri.path, status: response.status.code, since: start)
        return response
    }

    /// Also used by code that answers outside the router (the gateway's direct path).
    package static func log(
        to logger: Logger, level: Logger.Level, method: HTTPRequest.Method, path: String, status: Int, since start: ContinuousClock.Instant,
        metadata: Logger.Metadata = [:]
    ) {
        guard logger.logLevel <= level else { return }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        logger.log(
            level: level, "\(method) \(path) \(status)",
            metadata: metadata.merging(["duration_ms": .stringConvertible((ms * 100).rounded() / 100)]) { $1 })
    }
}
