import Foundation
import NIOCore

/// A `multipart/form-data` body as iOS clients build it, for upload tests.
package struct MultipartBody {
    package enum Part {
        case field(String, String)
        case file(String, filename: String, contentType: String, bytes: [UInt8])
    }

    package let boundary = "Boundary-" + UUID().uuidString
    package let parts: [Part]

    package init(parts: [Part]) {
        self.parts = parts
    }

    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    package var buffer: ByteBuffer {
        var buffer = ByteBuffer()
        for part in parts {
            buffer.writeString("--\(boundary)\r\n")
            switch part {
            case .field(let name, let value):
                buffer.writeString("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
            case .file(let name, let filename, let type, let bytes):
                buffer.writeString("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(type)\r\n\r\n")
                buffer.writeBytes(bytes)
                buffer.writeString("\r\n")
            }
        }
        buffer.writeString("--\(boundary)--\r\n")
        return buffer
    }
}
