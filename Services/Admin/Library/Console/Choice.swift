/// One option of a `<select>`, with whether it is the one chosen.
struct Choice {
    var value: String
    var label: String
    var selected: Bool

    static func list(_ values: [String], selected: String) -> [Choice] {
        values.map { Choice(value: $0, label: $0.isEmpty ? "any" : $0, selected: $0 == selected) }
    }
}
