import GRDB
import ServiceKit
import Synchronization

/// `CommitCounter` of a SQLite file: whichever code wrote, since every write of the file goes
/// through its pool's one writer, which reports here.
package final class TableChangeCounter: CommitCounter, TransactionObserver, Sendable {
    private let tables: Set<String>
    /// Set on the writer's queue when the open transaction changed a watched table.
    private let pending = Atomic<Bool>(false)
    private let commits = Atomic<UInt64>(0)

    private init(tables: Set<String>) {
        self.tables = tables
    }

    /// A counter of `tables` (names as in SQL), reported to for as long as the file is open.
    package static func watching(_ tables: Set<String>, in writer: some DatabaseWriter) -> TableChangeCounter {
        let counter = TableChangeCounter(tables: tables)
        writer.add(transactionObserver: counter, extent: .databaseLifetime)
        return counter
    }

    /// How many commits have changed the tables so far.
    package var count: UInt64 { commits.load(ordering: .acquiring) }

    package func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        tables.contains(eventKind.tableName)
    }

    package func databaseDidChange(with event: DatabaseEvent) {
        pending.store(true, ordering: .relaxed)
        // One change is enough to know; the rest of the transaction need not be reported.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    /// Changes GRDB cannot see row by row (`Database.notifyChanges(in:)`).
    package func databaseDidChange() {
        pending.store(true, ordering: .relaxed)
    }

    package func databaseDidCommit(_ db: Database) {
        if pending.exchange(false, ordering: .relaxed) { commits.add(1, ordering: .releasing) }
    }

    package func databaseDidRollback(_ db: Database) {
        pending.store(false, ordering: .relaxed)
    }
}
