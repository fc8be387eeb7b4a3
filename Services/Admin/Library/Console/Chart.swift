import Contracts

/// A small bar chart as inline SVG (no script, no style attribute: the console's CSP allows
/// neither): one bar per day, the tallest at full height, each with its day and count as a title.
struct Chart {
    struct Bar {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var label: String
    }

    var title: String
    var total: Int
    var latest: Int
    var bars: [Bar]

    static let width = 280, height = 48

    init(_ title: String, _ series: [DailyCount]) {
        self.title = title
        total = series.map(\.count).reduce(0, +)
        latest = series.last?.count ?? 0
        let top = max(series.map(\.count).max() ?? 0, 1)
        let step = series.isEmpty ? Self.width : Self.width / series.count
        bars = series.enumerated().map { index, day in
            let height = day.count == 0 ? 1 : max(2, day.count * Self.height / top)
            return Bar(x: index * step, y: Self.height - height, width: max(step - 1, 1), height: height, label: "\(day.day): \(day.count)")
        }
    }

    /// A line of rates (requests per second between readings) as polyline points.
    static func points(_ values: [Double]) -> String {
        guard values.count > 1 else { return "" }
        let top = max(values.max() ?? 0, 0.01)
        let step = Double(width) / Double(values.count - 1)
        return values.enumerated().map { index, value in
            "\(Int(Double(index) * step)),\(Int(Double(height) - value / top * Double(height - 2)))"
        }.joined(separator: " ")
    }
}
