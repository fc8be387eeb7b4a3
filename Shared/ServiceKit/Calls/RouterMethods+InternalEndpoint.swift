import Contracts
import Hummingbird

extension RouterMethods where Context == GlintRequestContext {
    /// Serves a declared internal endpoint: its parameter is read from the path and its body
    /// decoded (as JSON, within the context's limit) before `handler` runs; the answer is JSON.
    @discardableResult
    package func serve<Parameter, Body, Answer>(
        _ endpoint: InternalEndpoint<Parameter, Body, Answer>,
        _ handler: @escaping @Sendable (Parameter, Body, GlintRequestContext) async throws -> Answer
    ) -> Self {
        let names = endpoint.parameterNames
        return on(RouterPath(endpoint.pattern), method: HTTPRequest.Method(rawValue: endpoint.method.rawValue)!) { request, context -> Response in
            let parameter = Parameter(pathValues: try names.map { try context.parameters.require($0) })
            let body = Body.self == NoBody.self ? NoBody() as! Body : try await request.decode(as: Body.self, context: context)
            return JSONCoding.response(body: try await handler(parameter, body, context))
        }
    }
}
