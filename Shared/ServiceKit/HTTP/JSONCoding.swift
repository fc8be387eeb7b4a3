import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The JSON settings of the wire: no `\/` escapes, dates are already strings in our DTOs.
package enum JSONCoding {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    package static let decoder = JSONDecoder()

    package static let contentType = "application/json; charset=utf-8"

    package static func encode(_ value: some Encodable) -> ByteBuffer {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter()
            writable.write(to: &writer)
            return writer.buffer
        }
        // Our DTOs encode only strings, numbers, bools and containers: encoding cannot fail.
        return ByteBuffer(data: (try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    package static func response(status: HTTPResponse.Status = .ok, body: some Encodable, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: encode(body)))
    }
}

/// Answers encoded with `JSONCoding.encoder`.
package struct JSONResponseEncoder: ResponseEncoder {
    package init() {}

    package func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        JSONCoding.response(body: value)
    }
}
