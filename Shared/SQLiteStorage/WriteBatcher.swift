import GRDB
import ServiceKit
import Synchronization

/// Runs many small writes of one kind in shared transactions (group commit): while one batch is
/// being written, the next requests gather, and they go in together. SQLite has one writer, so
/// busy small writes queue anyway; a batch pays the hand-off to the writer's thread and the
/// commit's WAL frames once instead of once per request.
///
/// A request that throws fails alone: its batch is rolled back and each of its requests runs again
/// in a transaction of its own (savepoints per request would cost every batch for the rare error).
///
/// Each caller is resumed on the event loop it waited on (`CallingLoop`), not on the loop the
/// batch happened to come back to. Given a `SQLiteDirectWriter`, a batch of up to `maxDirect`
/// is written on the draining thread when the file's write lock is free, without the hop.
///
/// Public and inlinable, so that its users specialise it (why: `ExpiringCache`).
public final class WriteBatcher<Request: Sendable, Outcome: Sendable>: Sendable {
    @usableFromInline typealias Pending = (request: Request, continuation: CheckedContinuation<Outcome, any Error>, caller: CallingLoop)

    @usableFromInline struct State {
        @usableFromInline var pending: [Pending] = []
        @usableFromInline var writing = false

        @inlinable init() {}
    }

    @usableFromInline let database: any DatabaseWriter
    @usableFromInline let direct: SQLiteDirectWriter?
    @usableFromInline let maxBatch: Int
    /// A larger batch (a burst) goes to the writer's queue: the loop is held for small ones only.
    @usableFromInline static var maxDirect: Int { 32 }
    @usableFromInline let apply: @Sendable (Database, Request) throws -> Outcome
    @usableFromInline let state = Mutex(State())

    /// `apply` is one request's write, inside the batch's transaction.
    @inlinable package init(
        database: any DatabaseWriter, direct: SQLiteDirectWriter? = nil, maxBatch: Int = 256,
        apply: @escaping @Sendable (Database, Request) throws -> Outcome
    ) {
        self.database = database
        self.direct = direct
        self.maxBatch = maxBatch
        self.apply = apply
    }

    /// Requests waiting for the batch being written to finish.
    @inlinable package var waiting: Int { state.withLock { $0.pending.count } }

    @inlinable package func submit(_ request: Request) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.pending.append((request, continuation, CallingLoop()))
                defer { state.writing = true }
                return !state.writing
            }
            if start { Task { await self.drain() } }
        }
    }

    /// Writes batches until nothing is pending.
    @inlinable func drain() async {
        while true {
            let batch = state.withLock { state -> [Pending] in
                let batch = Array(state.pending.prefix(maxBatch))
                state.pending.removeFirst(batch.count)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            // A closure, not `\.request`: a key path in a generic class is instantiated on every call.
            let requests = batch.map { $0.request }
            do {
                let write = { @Sendable [apply] (db: Database) throws -> [Outcome] in try requests.map { try apply(db, $0) } }
                let outcomes: [Outcome]
                if batch.count <= Self.maxDirect, let written = try direct?.writeNow(write) {
                    outcomes = written
                } else {
                    outcomes = try await database.write(write)
                }
                for (pending, outcome) in zip(batch, outcomes) { pending.caller.resume(pending.continuation, with: .success(outcome)) }
            } catch {
                // The batch was rolled back: each again on its own, so that only what fails fails
                // (rare: a rejected request is an outcome, not an error).
                guard batch.count > 1 else {
                    batch[0].caller.resume(batch[0].continuation, with: .failure(error))
                    continue
                }
                for pending in batch {
                    do {
                        let outcome = try await database.write { [apply] db in try apply(db, pending.request) }
                        pending.caller.resume(pending.continuation, with: .success(outcome))
                    } catch {
                        pending.caller.resume(pending.continuation, with: .failure(error))
                    }
                }
            }
        }
    }
}
