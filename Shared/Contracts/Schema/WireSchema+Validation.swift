import Foundation

extension WireSchema {
    /// Where a decoded JSON value (`JSONSerialization`'s objects) departs from this schema: a
    /// missing required key, a key the schema does not have, a wrong type, a value outside an
    /// enumeration. Empty when it conforms. `references` resolves `.reference` names.
    package func violations(of value: Any, at path: String = "$", references: [String: WireSchema] = [:]) -> [String] {
        let references = references.merging(namedObjects()) { first, _ in first }
        return check(value, at: path, references: references)
    }

    private func check(_ value: Any, at path: String, references: [String: WireSchema]) -> [String] {
        switch self {
        case .any:
            return []
        case .string:
            return value is String ? [] : ["\(path): not a string"]
        case .boolean:
            return Self.isBool(value) ? [] : ["\(path): not a boolean"]
        case .integer:
            guard let number = value as? NSNumber, !Self.isBool(value), number.doubleValue == number.doubleValue.rounded() else {
                return ["\(path): not an integer"]
            }
            return []
        case .number:
            return value is NSNumber && !Self.isBool(value) ? [] : ["\(path): not a number"]
        case .enumeration(let values):
            guard let text = value as? String, values.contains(text) else { return ["\(path): not one of \(values.prefix(8))"] }
            return []
        case .array(let element):
            guard let items = value as? [Any] else { return ["\(path): not a list"] }
            return items.enumerated().flatMap { element.check($1, at: "\(path)[\($0)]", references: references) }
        case .dictionary(let element):
            guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
            return object.flatMap { element.check($1, at: "\(path).\($0)", references: references) }
        case .reference(let name):
            guard let schema = references[name] else { return ["\(path): unknown schema \(name)"] }
            return schema.check(value, at: path, references: references)
        case .object(_, let properties):
            guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
            var found: [String] = []
            let known = Set(properties.map(\.key))
            for key in object.keys.sorted() where !known.contains(key) { found.append("\(path).\(key): not in the schema") }
            for property in properties {
                guard let member = object[property.key], !(member is NSNull) else {
                    // An optional key may be absent or null (the envelope's `data` is null).
                    if property.required, object[property.key] == nil { found.append("\(path).\(property.key): missing") }
                    if property.required, object[property.key] is NSNull { found.append("\(path).\(property.key): null") }
                    continue
                }
                found += property.schema.check(member, at: "\(path).\(property.key)", references: references)
            }
            return found
        }
    }

    /// Every named object inside, by name (what `.reference` points at).
    private func namedObjects() -> [String: WireSchema] {
        switch self {
        case .object(let name, let properties):
            return properties.reduce(into: [name: self]) { found, property in found.merge(property.schema.namedObjects()) { first, _ in first } }
        case .array(let element), .dictionary(let element):
            return element.namedObjects()
        default:
            return [:]
        }
    }

    private static func isBool(_ value: Any) -> Bool {
        // JSONSerialization makes booleans NSNumbers whose type is C's `char`.
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }
}
