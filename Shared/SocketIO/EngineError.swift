import Hummingbird

/// The Engine.IO server's HTTP errors: 400 with `{code, message}` as the reference server sends.
package struct EngineError: Error, Sendable {
    var code: Int
    var message: String
    var status: HTTPResponse.Status = .badRequest

    static let unknownTransport = EngineError(code: 0, message: "Transport unknown")
    static let unknownSession = EngineError(code: 1, message: "Session ID unknown")
    static let badHandshakeMethod = EngineError(code: 2, message: "Bad handshake method")
    package static let badRequest = EngineError(code: 3, message: "Bad request")
    static let unsupportedVersion = EngineError(code: 5, message: "Unsupported protocol version")
    static let payloadTooLarge = EngineError(code: 3, message: "Payload too large", status: .contentTooLarge)

    /// The body: `{"code":…,"message":…}`.
    package var json: String {
        JSONValue.object(["code": .number(Double(code)), "message": .string(message)]).text
    }

    var response: Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
