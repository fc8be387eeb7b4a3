import Foundation
import Hummingbird
import NIOCore

/// JSON request bodies: within the context's size limit (413), free of duplicate keys and deep
/// nesting (400, `JSONKeyCheck`), then decoded; whatever does not decode is a 400 that says
/// which field.
package struct GlintRequestDecoder: RequestDecoder {
    package init() {}

    package func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try Self.decode(type, from: try await request.body.collect(upTo: context.maxUploadSize))
    }

    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        if let problem = JSONKeyCheck.problem(in: buffer.readableBytesView) { throw ServiceError.badRequest(problem) }
        do {
            return try JSONCoding.decoder.decode(T.self, from: buffer)
        } catch let error as DecodingError {
            throw ServiceError.badRequest(Self.describe(error))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(([path(context)].filter { !$0.isEmpty } + [key.stringValue]).joined(separator: ".")) is required"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context).isEmpty ? "body" : path(context)) has the wrong type"
        case .dataCorrupted(let context): return path(context).isEmpty ? "body is not valid JSON" : "\(path(context)) is invalid"
        @unknown default: return "body is not valid JSON"
        }
    }
}

extension Request {
    /// The JSON body, or nil when none was sent (an empty or blank body): for calls whose body
    /// only adds optional details, which clients may leave out.
    package func decodeIfPresent<T: Decodable>(as type: T.Type, context: some RequestContext) async throws -> T? {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        guard buffer.readableBytesView.contains(where: { ![32, 9, 10, 13].contains($0) }) else { return nil }
        return try GlintRequestDecoder.decode(type, from: buffer)
    }
}
