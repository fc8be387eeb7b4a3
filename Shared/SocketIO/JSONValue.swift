import Foundation

/// Any JSON value, as Socket.IO event arguments are: clients send arbitrary JSON and expect it
/// back unchanged (numbers keep their JavaScript double semantics).
package enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    private static let decoder = JSONDecoder()
    /// Sorted keys: the same value always encodes to the same text.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Parses JSON text; nil for anything that is not exactly one JSON value.
    package static func parse(_ text: some StringProtocol) -> JSONValue? {
        try? decoder.decode(JSONValue.self, from: Data(text.utf8))
    }

    package var text: String {
        String(decoding: (try? Self.encoder.encode(self)) ?? Data("null".utf8), as: UTF8.self)
    }

    package var string: String? { if case .string(let value) = self { value } else { nil } }
    package var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    package var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    package subscript(key: String) -> JSONValue? { object?[key] }
}
