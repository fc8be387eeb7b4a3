import Hummingbird
import NIOCore

/// An answer of type `Shape` already written as JSON (`JSONCoding.encode`), to be sent as it is:
/// for answers kept between requests, whose bytes need not be written again. The type names the
/// shape clients get, as the route that returns it would with `Shape` itself.
package struct EncodedJSON<Shape: Encodable>: ResponseGenerator, Sendable {
    package let bytes: ByteBuffer

    package init(_ value: Shape) {
        bytes = JSONCoding.encode(value)
    }

    package func response(from request: Request, context: some RequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: JSONCoding.contentType], body: .init(byteBuffer: bytes))
    }
}
