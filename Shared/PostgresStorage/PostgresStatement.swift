import PostgresNIO
import ServiceKit

/// A statement whose conditions depend on the request (a feed's filters): each part binds its
/// values as it is written, numbered in order, so optional parts need no bookkeeping.
package struct PostgresStatement {
    package private(set) var binds = PostgresBindings()

    package init() {}

    /// The placeholder (`$n`) of `value`, bound.
    package mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    package mutating func bind(_ value: (some PostgresDynamicTypeEncodable)?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// `sql`, written with this statement's placeholders. Write `sql` first: this reads the
    /// values bound so far (`s.query(f(s.bind(x)))` would miss `x`).
    package func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
