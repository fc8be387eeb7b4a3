/// A page's view made once into what templates read fastest: structs into `[String: Any]`,
/// collections into `[Any]`, optionals unwrapped (nil left out). swift-mustache reads a struct's
/// value by reflecting it anew for every name it looks up, at every level of the context stack;
/// a queue of fifty groups was most of its time in the reflection runtime. Dictionaries are
/// read by key instead, and each value is reflected once here.
enum TemplateValues {
    static func tree(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.flatMap { tree($0.value) }
        case .collection, .set:
            return mirror.children.compactMap { tree($0.value) }
        case .dictionary:
            guard let dictionary = value as? [String: Any] else { return value }
            return dictionary.compactMapValues(tree)
        case .struct, .class:
            var fields: [String: Any] = [:]
            for child in mirror.children {
                if let label = child.label, let converted = tree(child.value) { fields[label] = converted }
            }
            return fields
        default:
            // Strings, numbers, Booleans and enums are read as they are.
            return value
        }
    }
}
