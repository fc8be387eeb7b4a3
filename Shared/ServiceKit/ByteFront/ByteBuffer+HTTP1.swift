import NIOCore
import NIOHTTP1

/// HTTP/1.1's lines as the byte fronts write them (the gateway both ways, services their answers).
extension ByteBuffer {
    /// `HTTP/1.1 200 OK\r\n`
    package mutating func writeStatusLine(_ status: HTTPResponseStatus) {
        writeStaticString("HTTP/1.1 ")
        writeString(String(status.code))
        writeStaticString(" ")
        writeString(status.reasonPhrase)
        writeStaticString("\r\n")
    }

    /// `name: value\r\n`
    package mutating func writeField(_ name: String, _ value: String) {
        writeString(name)
        writeStaticString(": ")
        writeString(value)
        writeStaticString("\r\n")
    }
}
