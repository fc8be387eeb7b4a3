import GRDB

extension Row {
    /// Every row of `statement`, each decoded while the cursor is on it. A row of `Row.fetchAll`
    /// is a copy that finds a column by lowercasing its name and every column's in turn, for each
    /// field read by name; a live row looks the name up in its statement's table (`lowercased`
    /// was 7% of market-svc's CPU on a page of filters read the other way).
    package static func decodeAll<Value>(
        _ statement: Statement, arguments: StatementArguments, _ decode: (Row) throws -> Value
    ) throws -> [Value] {
        let rows = try fetchCursor(statement, arguments: arguments)
        var values: [Value] = []
        while let row = try rows.next() { values.append(try decode(row)) }
        return values
    }
}
