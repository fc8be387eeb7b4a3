import Synchronization

/// What `abandoning(after:_:)` throws when its operation outlived its limit.
package struct OperationAbandoned: Error, CustomStringConvertible {
    package var limit: Duration
    package var description: String { "left behind after \(limit)" }
}

/// Runs `operation` and waits for it at most `limit`, and not past the caller's cancellation:
/// then it is left behind (cancelled, and its result dropped when it comes) and the caller goes
/// on. For background rounds whose work may wait in a driver for ever: PostgresNIO 1.33
/// occasionally never completes a statement whose connection the server killed mid-flight,
/// which would otherwise stop the round's loop, and the process's shutdown, for good. Only
/// for work whose effect may land late or not at all (a relay round whose messages go again
/// when their lease ends), never for a request's answer.
package func abandoning<Value: Sendable>(
    after limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let waiter = AbandonableWaiter<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let work = Task { waiter.finish(await Result(catching: operation)) }
            let timer = Task {
                try await Task.sleep(for: limit)
                waiter.finish(.failure(OperationAbandoned(limit: limit)))
            }
            waiter.start(continuation, work: work, timer: timer)
        }
    } onCancel: {
        waiter.finish(.failure(CancellationError()))
    }
}

/// The one continuation `abandoning` resumes, whichever of the work, the timer and the
/// cancellation comes first (a cancellation may come before the continuation exists).
private final class AbandonableWaiter<Value: Sendable>: Sendable {
    private enum State {
        case starting
        case waiting(CheckedContinuation<Value, any Error>, work: Task<Void, Never>, timer: Task<Void, any Error>)
        case finishedEarly(Result<Value, any Error>)
        case done
    }

    private let state = Mutex<State>(.starting)

    func start(_ continuation: CheckedContinuation<Value, any Error>, work: Task<Void, Never>, timer: Task<Void, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            defer { state = .waiting(continuation, work: work, timer: timer) }
            guard case .finishedEarly(let result) = state else { return nil }
            return result
        }
        if let early { finish(early) }
    }

    func finish(_ result: Result<Value, any Error>) {
        let waiting = state.withLock { state -> (CheckedContinuation<Value, any Error>, Task<Void, Never>, Task<Void, any Error>)? in
            switch state {
            case .starting:
                state = .finishedEarly(result)
                return nil
            case .waiting(let continuation, let work, let timer):
                state = .done
                return (continuation, work, timer)
            case .finishedEarly, .done:
                return nil
            }
        }
        guard let (continuation, work, timer) = waiting else { return }
        work.cancel()
        timer.cancel()
        continuation.resume(with: result)
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
