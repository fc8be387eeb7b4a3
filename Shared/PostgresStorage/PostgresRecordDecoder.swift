import PostgresNIO
import ServiceKit

/// Reads a `Decodable` record from a row by column name, its `CodingKeys` being the columns (as
/// GRDB's `FetchableRecord` does on SQLite), so one record type serves both engines. Scalars
/// are read by PostgresNIO's codecs; a nested value (a `RawRepresentable` enum) from its cell.
package enum PostgresRecordDecoder {
    package static func decode<Record: Decodable>(_ type: Record.Type, from row: PostgresRow) throws -> Record {
        try decode(type, from: row.makeRandomAccess())
    }

    /// The same from a row whose other columns are read too (a feed's sequence).
    package static func decode<Record: Decodable>(_ type: Record.Type, from row: PostgresRandomAccessRow) throws -> Record {
        try Record(from: RowDecoder(row: row))
    }

    package static func decodeAll<Record: Decodable>(_ type: Record.Type, from rows: PostgresRowSequence) async throws -> [Record] {
        var records: [Record] = []
        for try await row in rows { records.append(try decode(type, from: row)) }
        return records
    }
}

private struct RowDecoder: Decoder {
    let row: PostgresRandomAccessRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a row is read by column name"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "a row is read by column name"))
    }
}

private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: PostgresRandomAccessRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.compactMap { Key(stringValue: $0.columnName) } }

    func contains(_ key: Key) -> Bool { row.contains(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { try cell(key).bytes == nil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try CellDecoder(cell: try cell(key)).decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.typeMismatch(type, .init(codingPath: [key], debugDescription: "a column holds no nested record"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [key], debugDescription: "a column holds no list"))
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoder(row: row) }

    private func cell(_ key: Key) throws -> PostgresCell {
        guard row.contains(key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no column \(key.stringValue)"))
        }
        return row[key.stringValue]
    }
}

/// One cell as a single value: scalars through PostgresNIO, anything else (an enum over a
/// scalar) through its own `init(from:)`.
private struct CellDecoder: Decoder, SingleValueDecodingContainer {
    let cell: PostgresCell
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = type as? any PostgresDecodable.Type, let value = try Self.decode(cell, as: scalar) as? T {
            return value
        }
        return try T(from: self)
    }

    private static func decode<Scalar: PostgresDecodable>(_ cell: PostgresCell, as type: Scalar.Type) throws -> Scalar {
        try cell.decode(type)
    }

    func decodeNil() -> Bool { cell.bytes == nil }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "a column holds no nested record"))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a column holds no list"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}
