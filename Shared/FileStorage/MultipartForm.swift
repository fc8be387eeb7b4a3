import Hummingbird
import NIOCore
import ServiceKit

/// A `multipart/form-data` body read as it streams in, with limits enforced on the way (so a
/// huge upload is refused before it is buffered): parts count, bytes per file part, bytes per
/// text field, bytes in all.
package struct MultipartForm: Sendable {
    package struct Part: Sendable {
        package var name: String
        package var filename: String?
        package var body: ByteBuffer

        package init(name: String, filename: String?, body: ByteBuffer) {
            (self.name, self.filename, self.body) = (name, filename, body)
        }
    }

    package struct Limits: Sendable {
        package var maxFileParts: Int
        package var maxFileBytes: Int
        package var maxTotalBytes: Int
        package var maxFieldBytes: Int

        /// API.md §0: at most 5 files, 5 MB each, 30 MB in all.
        package static let uploads = Limits(maxFileParts: 5, maxFileBytes: 5 << 20, maxTotalBytes: 30 << 20, maxFieldBytes: 64 << 10)

        package init(maxFileParts: Int, maxFileBytes: Int, maxTotalBytes: Int, maxFieldBytes: Int) {
            self.maxFileParts = maxFileParts
            self.maxFileBytes = maxFileBytes
            self.maxTotalBytes = maxTotalBytes
            self.maxFieldBytes = maxFieldBytes
        }
    }

    package var parts: [Part]

    package func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }.map { String(buffer: $0.body) }
    }

    /// File parts with this name that carry bytes (clients send an empty part when nothing was
    /// picked; it is ignored).
    package func files(named name: String) -> [Part] {
        parts.filter { $0.name == name && $0.filename != nil && $0.body.readableBytes > 0 }
    }

    /// The same for an upload (API.md §0, Files): a request must send parts of this name (400
    /// otherwise), but when all of them are empty it uploads nothing and answers `[]`.
    package func uploadedFiles(named name: String) throws -> [Part] {
        guard parts.contains(where: { $0.name == name }) else { throw ServiceError.badRequest("no files") }
        return files(named: name)
    }

    package static func isMultipart(_ request: Request) -> Bool {
        boundary(of: request) != nil
    }

    static func boundary(of request: Request) -> String? {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces)
            if pair.lowercased().hasPrefix("boundary=") {
                let value = pair.dropFirst("boundary=".count)
                return String(value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? value.dropFirst().dropLast() : value)
            }
        }
        return nil
    }

    package static func read(_ request: Request, limits: Limits) async throws -> MultipartForm {
        guard let boundary = boundary(of: request), !boundary.isEmpty, boundary.count <= 200 else {
            throw ServiceError.badRequest("multipart/form-data with a boundary expected")
        }
        var collector = Collector(limits: limits)
        var parser = FormDataParser(boundary: boundary)
        do {
            for try await chunk in request.body {
                try parser.feed(chunk) { try collector.take($0) }
            }
            try parser.finish()
        } catch is FormDataParser.Malformed {
            throw ServiceError.badRequest("malformed multipart body")
        }
        return MultipartForm(parts: collector.parts)
    }

    /// Parts gathered from the parser's events, the limits checked as bytes arrive.
    private struct Collector {
        let limits: Limits
        var parts: [Part] = []
        private var name: String?
        private var filename: String?
        private var current = ByteBuffer()
        private var total = 0

        init(limits: Limits) {
            self.limits = limits
        }

        mutating func take(_ event: FormDataParser.Event) throws {
            switch event {
            case .header(let field, let value): header(field, value)
            case .body(var buffer): try body(&buffer)
            case .partEnd: try complete()
            }
        }

        private mutating func header(_ field: String, _ value: String) {
            guard field.lowercased() == "content-disposition" else { return }
            for parameter in value.split(separator: ";").dropFirst() {
                let pair = parameter.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let key = pair[..<equals].lowercased()
                var text = pair[pair.index(after: equals)...]
                if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = text.dropFirst().dropLast() }
                if key == "name" { name = String(text) }
                if key == "filename" { filename = String(text) }
            }
        }

        private mutating func body(_ buffer: inout ByteBuffer) throws {
            total += buffer.readableBytes
            let limit = filename == nil ? limits.maxFieldBytes : limits.maxFileBytes
            if current.readableBytes + buffer.readableBytes > limit || total > limits.maxTotalBytes {
                throw ServiceError(
                    .payloadTooLarge,
                    filename == nil
                        ? "form field too large"
                        : "file too large (at most \(limits.maxFileBytes >> 20) MB each, \(limits.maxTotalBytes >> 20) MB in all)")
            }
            current.writeBuffer(&buffer)
        }

        private mutating func complete() throws {
            defer { name = nil; filename = nil; current = ByteBuffer() }
            guard let name else { return }
            if filename != nil, current.readableBytes > 0,
                parts.filter({ $0.filename != nil && $0.body.readableBytes > 0 }).count >= limits.maxFileParts
            {
                throw ServiceError.badRequest("at most \(limits.maxFileParts) files")
            }
            parts.append(Part(name: name, filename: filename, body: current))
        }
    }
}
