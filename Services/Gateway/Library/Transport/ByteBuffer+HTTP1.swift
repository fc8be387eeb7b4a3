import NIOCore
import NIOHTTP1

/// HTTP/1.1's lines as the gateway writes them, both ways (answers to clients, requests to services).
extension ByteBuffer {
    /// `HTTP/1.1 200 OK\r\n`
    mutating func writeStatusLine(_ status: HTTPResponseStatus) {
        writeStaticString("HTTP/1.1 ")
        writeString(String(status.code))
        writeStaticString(" ")
        writeString(status.reasonPhrase)
        writeStaticString("\r\n")
    }

    /// `name: value\r\n`
    mutating func writeField(_ name: String, _ value: String) {
        writeString(name)
        writeStaticString(": ")
        writeString(value)
        writeStaticString("\r\n")
    }
}
