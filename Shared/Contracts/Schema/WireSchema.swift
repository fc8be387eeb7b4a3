/// The JSON shape of a wire type, read off its `Decodable` conformance (`WireSchema.of`): what
/// the API documents are built from, so that the shapes are written once, in the types.
package indirect enum WireSchema: Sendable, Equatable {
    case string
    case integer
    case number
    case boolean
    /// One of these strings (`WireEnum`).
    case enumeration([String])
    case array(WireSchema)
    /// A map with string keys.
    case dictionary(WireSchema)
    /// A named object; `properties` in the order the type reads them.
    case object(name: String, properties: [Property])
    /// An object described elsewhere by name (a type that contains itself).
    case reference(String)
    /// Any JSON value.
    case any

    package struct Property: Sendable, Equatable {
        package var key: String
        package var schema: WireSchema
        package var required: Bool
    }

    /// The schema of `type`, or the reason it cannot be read off.
    package static func of<T: Decodable>(_ type: T.Type) throws -> WireSchema {
        try SchemaRecorder.schema(of: type, inProgress: [])
    }
}

/// A string type with a fixed set of values (an enum with `String` raw values): its values go
/// into the schema, as the decoder cannot guess them.
package protocol WireEnum {
    static var wireValues: [String] { get }
}

extension WireEnum where Self: CaseIterable & RawRepresentable, RawValue == String {
    package static var wireValues: [String] { allCases.map(\.rawValue) }
}

/// A type whose JSON is any value (`JSONValue`-like): described as such rather than read off.
package protocol WireAny {}
