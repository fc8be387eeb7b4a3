import Foundation
import ServiceKit

/// A column of an exported table as the store declares it, and how its values are written in an
/// export's JSON lines: the same on either engine (a SQLite `BOOLEAN` is `true`/`false`, not 0/1).
package struct ExportedColumn: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// A JSON number without a fraction.
        case integer
        /// A JSON number.
        case real
        /// `true` or `false`.
        case boolean
        /// A JSON string.
        case text
        /// A JSON string: the bytes in standard base64.
        case blob
    }

    package var name: String
    package var kind: Kind

    package init(name: String, kind: Kind) {
        (self.name, self.kind) = (name, kind)
    }

    /// The kind a declared type names: SQLite's (`INTEGER`, `BOOLEAN`, `DOUBLE`, `TEXT`, `BLOB`,
    /// by SQLite's affinity rules) or PostgreSQL's `information_schema` data type.
    package static func kind(declared: String) -> Kind {
        let type = declared.lowercased()
        if type == "boolean" || type == "bool" { return .boolean }
        if type.contains("int") { return .integer }
        if type.contains("char") || type.contains("clob") || type.contains("text") { return .text }
        if type.contains("blob") || type == "bytea" || type.isEmpty { return .blob }
        return .real
    }
}

/// One value of a record, as read from a store or an export's line.
package enum RecordValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case text(String)
    case blob(Data)

    package func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .integer(let value): writer.int(value)
        case .real(let value): writer.double(value)
        case .boolean(let value): writer.bool(value)
        case .text(let value): writer.string(value)
        case .blob(let value): writer.string(value.base64EncodedString())
        }
    }

    /// The value a line's JSON holds for a column of `kind`; nil when it is not one.
    package init?(json: LineValue, as kind: ExportedColumn.Kind) {
        switch (json, kind) {
        case (.null, _): self = .null
        case (.string(let text), .text): self = .text(text)
        case (.string(let text), .blob):
            guard let bytes = Data(base64Encoded: text) else { return nil }
            self = .blob(bytes)
        case (.bool(let value), .boolean): self = .boolean(value)
        case (.integer(let value), .integer): self = .integer(value)
        case (.integer(let value), .real): self = .real(Double(value))
        case (.real(let value), .real): self = .real(value)
        default: return nil
        }
    }

    /// A JSON value of an export's line (`RecordLineParser`), numbers read as integers where
    /// they are ones (a `Double` would round ids and amounts past 2^53).
    package enum LineValue: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case string(String)
    }
}
