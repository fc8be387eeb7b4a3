import PostgresNIO
import ServiceKit

/// An `Encodable` record as columns and bound values, its `CodingKeys` being the columns (as
/// GRDB's `PersistableRecord` on SQLite): `INSERT` and `UPDATE` statements without listing the
/// columns by hand. A `nil` property is a `NULL` column, not a missing one.
package struct PostgresColumns {
    package private(set) var names: [String] = []
    package private(set) var bindings = PostgresBindings()

    package init(_ record: some Encodable) throws {
        let encoder = ColumnEncoder()
        try record.encode(to: encoder)
        (names, bindings) = (encoder.storage.names, encoder.storage.bindings)
    }

    /// `INSERT INTO table (…) VALUES (…)` followed by `suffix` (`ON CONFLICT …`, `RETURNING …`).
    package func insert(into table: String, _ suffix: String = "") -> PostgresQuery {
        let values = (1...names.count).map { "$\($0)" }.joined(separator: ", ")
        return PostgresQuery(unsafeSQL: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(values)) \(suffix)", binds: bindings)
    }

    /// `UPDATE table SET … WHERE key = <the record's key>` for every column but the key.
    package func update(_ table: String, key: String) -> PostgresQuery {
        guard let keyIndex = names.firstIndex(of: key) else { preconditionFailure("the record has no column \(key)") }
        let sets = names.enumerated().filter { $0.offset != keyIndex }.map { "\($0.element) = $\($0.offset + 1)" }.joined(separator: ", ")
        return PostgresQuery(unsafeSQL: "UPDATE \(table) SET \(sets) WHERE \(key) = $\(keyIndex + 1)", binds: bindings)
    }
}

private final class ColumnStorage {
    var names: [String] = []
    var bindings = PostgresBindings()
}

private struct ColumnEncoder: Encoder {
    let storage = ColumnStorage()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ColumnContainer<Key>(storage: storage))
    }

    // `Encoder` cannot throw here: a record type that is not a flat list of columns is a
    // programming error, found by the first test that writes it.
    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a record is written by column name") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("a record is written by column name") }
}

private struct ColumnContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: ColumnStorage
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        storage.names.append(key.stringValue)
        storage.bindings.appendNull()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        storage.names.append(key.stringValue)
        if let scalar = value as? any PostgresThrowingDynamicTypeEncodable {
            try storage.bindings.append(scalar)
        } else {
            // An enum over a scalar: its raw value.
            let cell = CellEncoder()
            try value.encode(to: cell)
            guard let scalar = cell.value else { throw EncodingError.invalidValue(value, .init(codingPath: [key], debugDescription: "not a scalar")) }
            try storage.bindings.append(scalar)
        }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        fatalError("a column holds no nested record")
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { fatalError("a column holds no list") }
    mutating func superEncoder() -> any Encoder { ColumnEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ColumnEncoder() }
}

/// Catches the scalar a nested value (a `RawRepresentable` enum) encodes itself as.
private final class CellEncoder: Encoder, SingleValueEncodingContainer {
    var value: (any PostgresThrowingDynamicTypeEncodable)?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { fatalError("a column holds no nested record") }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("a column holds no list") }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = nil }
    func encode<T: Encodable>(_ value: T) throws {
        guard let scalar = value as? any PostgresThrowingDynamicTypeEncodable else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "not a scalar"))
        }
        self.value = scalar
    }
}
