import ServiceKit

/// A plain head's fields as strings, for the tests to compare.
extension PlainRequestHead {
    var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        forEachField { name, value, _ in fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))) }
        return fields
    }
}
