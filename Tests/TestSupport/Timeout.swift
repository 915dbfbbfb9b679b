import Synchronization

/// Runs `operation`, failing with `HarnessError.timedOut` if it has not finished within `seconds`.
/// A guard against hanging tests, never a way to wait for a timer: the operation itself awaits
/// the event it needs.
///
/// At the deadline the operation is cancelled and the caller gets the error at once, whether or
/// not the operation heeds the cancellation: a task group would wait for it, and an operation deaf
/// to cancellation (a connect that waits for a broker that never answers) would hang the very test
/// this guards (a CI run hung that way, waiting on a NATS node that had died at bind).
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ what: String = "operation",
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = TimeoutRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation, seconds: seconds, what: what, operation: operation)
        }
    } onCancel: {
        race.cancelOperation()
    }
}

/// The operation and the clock of one ``withTimeout(_:_:_:)``: whichever ends first resumes the
/// caller and cancels the other, which is left to end on its own.
private final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    func start(
        _ continuation: CheckedContinuation<T, any Error>, seconds: Double, what: String,
        operation: @escaping @Sendable () async throws -> T
    ) {
        state.withLock { $0.continuation = continuation }
        let work = Task {
            do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
        }
        let timer = Task {
            do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
            finish(.failure(HarnessError.timedOut(what)))
        }
        let (cancelled, finished) = state.withLock { state in
            state.work = work
            state.timer = timer
            return (state.cancelled, state.continuation == nil)
        }
        if cancelled { work.cancel() }
        if finished { work.cancel(); timer.cancel() }
    }

    private func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.work, state.timer)
        }
        guard let continuation else { return }
        work?.cancel()
        timer?.cancel()
        continuation.resume(with: result)
    }

    /// The caller was cancelled: so is the operation, and its outcome (a `CancellationError`,
    /// usually) ends the wait.
    func cancelOperation() {
        let work = state.withLock { state in
            state.cancelled = true
            return state.work
        }
        work?.cancel()
    }
}

/// Polls `condition` until it holds; for conditions outside this process (a port opening,
/// a process exiting) that offer nothing to await.
public func eventually(
    _ what: String, within seconds: Double = 10, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw HarnessError.timedOut(what)
}
