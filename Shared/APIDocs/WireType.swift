import Contracts

/// A wire type named in the catalogue, its schema read off when a document is built.
package struct WireType: Sendable {
    package let schema: @Sendable () throws -> WireSchema

    package static func of<T: Decodable & Sendable>(_ type: T.Type) -> WireType {
        WireType { try WireSchema.of(T.self) }
    }
}
