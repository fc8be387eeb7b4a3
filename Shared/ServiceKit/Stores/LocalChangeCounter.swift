import Synchronization

/// `CommitCounter` moved by hand: where one process holds every cache of the thing counted (a
/// service on its SQLite file), telling it is telling them all.
package final class LocalChangeCounter: CommitCounter {
    private let commits = Atomic<UInt64>(0)

    package init() {}

    package var count: UInt64 { commits.load(ordering: .acquiring) }

    package func bump() {
        commits.add(1, ordering: .releasing)
    }
}
