/// A token bucket's shape: refill rate and capacity.
package struct RateLimit: Sendable, Equatable {
    package var perSecond: Double
    package var burst: Double

    package init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }
}
