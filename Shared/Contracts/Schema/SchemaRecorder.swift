/// A `Decoder` that decodes nothing: it hands the type placeholder values and writes down what
/// the type asks for (keys, their types, whether `decodeIfPresent` was used) as a `WireSchema`.
final class SchemaRecorder: Decoder {
    enum Failure: Error, CustomStringConvertible {
        case unreadable(String, any Error)
        var description: String {
            switch self {
            case .unreadable(let type, let error): "the schema of \(type) cannot be read off its Decodable: \(error)"
            }
        }
    }

    /// What the type asked for at the top: nothing yet, an object, a list or one value.
    enum Shape {
        case unknown
        case object(Box)
        case array(WireSchema?)
        case single(WireSchema)
    }

    final class Box {
        var properties: [WireSchema.Property] = []
        /// Keys asked about with `decodeNil` first: what `decodeIfPresent` does for the
        /// primitive types before it decodes.
        var optional: Set<String> = []
    }

    let inProgress: Set<String>
    /// Only making a value to hand back (no schema wanted): lists come out empty and optional
    /// keys absent, so a type that contains itself ends.
    let placeholderOnly: Bool
    var shape: Shape = .unknown
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(inProgress: Set<String>, placeholderOnly: Bool = false) {
        self.inProgress = inProgress
        self.placeholderOnly = placeholderOnly
    }

    static func name<T>(of type: T.Type) -> String {
        String(describing: type).map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") { $0.append($1) }
            .split(separator: "_").joined(separator: "_")
    }

    static func schema<T: Decodable>(of type: T.Type, inProgress: Set<String>) throws -> WireSchema {
        if let primitive = primitive(type) { return primitive }
        if let wireEnum = type as? any WireEnum.Type { return .enumeration(wireEnum.wireValues) }
        if type is any WireAny.Type { return .any }
        if let map = type as? any StringKeyedMap.Type { return .dictionary(try map.valueSchema(inProgress: inProgress)) }
        let name = name(of: type)
        if inProgress.contains(name) { return .reference(name) }
        // Lists and optionals are not named objects: only what they hold can contain itself.
        let recorder = SchemaRecorder(inProgress: type is any Wrapper.Type ? inProgress : inProgress.union([name]))
        do {
            _ = try T(from: recorder)
        } catch {
            throw Failure.unreadable(name, error)
        }
        switch recorder.shape {
        case .unknown: return .any
        case .single(let schema): return schema
        case .array(let element): return .array(element ?? .any)
        case .object(let box): return .object(name: name, properties: box.properties)
        }
    }

    static func primitive<T>(_ type: T.Type) -> WireSchema? {
        switch type {
        case is String.Type: .string
        case is Bool.Type: .boolean
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type: .integer
        case is Double.Type, is Float.Type: .number
        default: nil
        }
    }

    /// A value of a type the decoder hands back while recording.
    static func placeholder<T: Decodable>(_ type: T.Type, inProgress: Set<String>) throws -> T {
        switch type {
        case is String.Type: return "" as! T
        case is Bool.Type: return false as! T
        case is Int.Type: return 0 as! T
        case is Int64.Type: return Int64(0) as! T
        case is Int32.Type: return Int32(0) as! T
        case is UInt.Type: return UInt(0) as! T
        case is UInt64.Type: return UInt64(0) as! T
        case is Double.Type: return 0.0 as! T
        case is Float.Type: return Float(0) as! T
        default:
            if let wireEnum = type as? any (WireEnum & Decodable).Type, let first = wireEnum.wireValues.first {
                return try T(from: SingleValue(first))
            }
            return try T(from: SchemaRecorder(inProgress: inProgress, placeholderOnly: true))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let box: Box
        if case .object(let existing) = shape {
            box = existing
        } else {
            box = Box()
            shape = .object(box)
        }
        return KeyedDecodingContainer(KeyedRecorder<Key>(box: box, inProgress: inProgress, placeholderOnly: placeholderOnly))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedRecorder(recorder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleRecorder(recorder: self)
    }

    struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let box: Box
        let inProgress: Set<String>
        let placeholderOnly: Bool
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }

        func decodeNil(forKey key: Key) throws -> Bool {
            box.optional.insert(key.stringValue)
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if !placeholderOnly {
                record(key, try SchemaRecorder.schema(of: type, inProgress: inProgress), required: !box.optional.contains(key.stringValue))
            }
            return try SchemaRecorder.placeholder(type, inProgress: inProgress)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if !placeholderOnly { record(key, try SchemaRecorder.schema(of: type, inProgress: inProgress), required: false) }
            return nil
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw SchemaRecorder.Failure.unreadable("nested container \(key.stringValue)", Unrecordable())
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw SchemaRecorder.Failure.unreadable("nested list \(key.stringValue)", Unrecordable())
        }

        func superDecoder() throws -> any Decoder { SchemaRecorder(inProgress: inProgress) }
        func superDecoder(forKey key: Key) throws -> any Decoder { SchemaRecorder(inProgress: inProgress) }

        private func record(_ key: Key, _ schema: WireSchema, required: Bool) {
            if let index = box.properties.firstIndex(where: { $0.key == key.stringValue }) {
                box.properties[index].required = box.properties[index].required || required
            } else {
                box.properties.append(WireSchema.Property(key: key.stringValue, schema: schema, required: required))
            }
        }
    }

    struct UnkeyedRecorder: UnkeyedDecodingContainer {
        let recorder: SchemaRecorder
        var codingPath: [any CodingKey] = []
        var count: Int? { 1 }
        var isAtEnd: Bool {
            if recorder.placeholderOnly { return true }
            if case .array(let element) = recorder.shape { return element != nil }
            return false
        }
        var currentIndex: Int { isAtEnd ? 1 : 0 }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            recorder.shape = .array(try SchemaRecorder.schema(of: type, inProgress: recorder.inProgress))
            return try SchemaRecorder.placeholder(type, inProgress: recorder.inProgress)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw SchemaRecorder.Failure.unreadable("nested container in a list", Unrecordable())
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw SchemaRecorder.Failure.unreadable("nested list in a list", Unrecordable())
        }

        mutating func superDecoder() throws -> any Decoder { SchemaRecorder(inProgress: recorder.inProgress) }
    }

    struct SingleRecorder: SingleValueDecodingContainer {
        let recorder: SchemaRecorder
        var codingPath: [any CodingKey] = []

        func decodeNil() -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let schema = try SchemaRecorder.schema(of: type, inProgress: recorder.inProgress)
            recorder.shape = .single(schema)
            return try SchemaRecorder.placeholder(type, inProgress: recorder.inProgress)
        }
    }

    /// A decoder holding one string: how an enum's placeholder is made from its first value.
    struct SingleValue: Decoder, SingleValueDecodingContainer {
        let value: String
        init(_ value: String) { self.value = value }
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]
        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw Unrecordable() }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unrecordable() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard let value = value as? T else { throw Unrecordable() }
            return value
        }
    }

    /// A shape this recorder cannot write down (nested containers, a non-string enum).
    struct Unrecordable: Error {}
}

/// `[String: Value]`: its keys are data, so it is described as a map of its values.
protocol StringKeyedMap {
    static func valueSchema(inProgress: Set<String>) throws -> WireSchema
}

extension Dictionary: StringKeyedMap where Key == String, Value: Decodable {
    static func valueSchema(inProgress: Set<String>) throws -> WireSchema {
        try SchemaRecorder.schema(of: Value.self, inProgress: inProgress)
    }
}

/// Types whose schema is that of what they hold, never a named object of their own.
protocol Wrapper {}
extension Array: Wrapper {}
extension Optional: Wrapper {}
