/// What a walk's fixes add up to. Segments faster than 30 km/h are GPS jumps: they add neither
/// distance nor calories, and a fix with jumps on both sides is dropped from the path.
struct WalkMetrics: Sendable, Equatable {
    static let maxSpeed = 30 / 3.6
    static let bodyMass = 70.0

    var distance: Double
    var calories: Double
    /// The fixes worth drawing (jump outliers removed), in time order.
    var kept: [TrackPoint]

    /// Metabolic equivalents of walking at a speed (km/h).
    static func mets(kilometresPerHour speed: Double) -> Double {
        switch speed {
        case ...3.2: 2.8
        case ...4.8: 3.9
        case ...6.4: 4.5
        default: 6.0
        }
    }

    /// Points in time order. Calories are kcal = METs × 70 kg × hours, segment by segment with
    /// each segment's own speed.
    init(_ points: [TrackPoint]) {
        var distance = 0.0, calories = 0.0
        var jumps = [Bool](repeating: false, count: max(0, points.count - 1))
        for index in points.indices.dropFirst() {
            let metres = GreatCircle.distance(points[index - 1].coordinate, points[index].coordinate)
            let seconds = Double(points[index].time - points[index - 1].time) / 1000
            if metres > 0, seconds <= 0 || metres / seconds > Self.maxSpeed {
                jumps[index - 1] = true
                continue
            }
            distance += metres
            if seconds > 0 { calories += Self.mets(kilometresPerHour: metres / seconds * 3.6) * Self.bodyMass * seconds / 3600 }
        }
        self.distance = distance
        self.calories = calories
        kept = points.indices.filter { index in
            index == 0 || index == points.count - 1 || !(jumps[index - 1] && jumps[index])
        }.map { points[$0] }
    }
}
