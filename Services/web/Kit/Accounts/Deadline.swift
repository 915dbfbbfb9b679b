import SafeWalkCore
import Synchronization

/// Bounds a wait on a collaborator with a clock the caller gives (a manual one in tests).
///
/// Returns as soon as either the operation or the timer finishes, even if the operation ignores
/// cancellation (it is cancelled and its result dropped): a broker that never answers must not
/// hold an HTTP request open. Whichever finishes first cancels the other, so no timer outlives
/// the wait.
public enum Deadline {
    public static func run<T: Sendable>(
        _ wait: Duration, clock: any Clock<Duration>, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        return try await withCheckedThrowingContinuation { continuation in
            race.begin(continuation)
            race.add(
                Task {
                    do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                })
            race.add(
                Task {
                    do { try await clock.sleep(for: wait) } catch { return }
                    race.finish(.failure(CollaboratorError.timedOut(seconds: wait.seconds)))
                })
        }
    }
}

/// The first of two tasks to finish resumes the caller and cancels the other.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        var done = false
    }

    private let state = Mutex(State())

    func begin(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func add(_ task: Task<Void, Never>) {
        let late = state.withLock { state in
            state.tasks.append(task)
            return state.done
        }
        if late { task.cancel() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock { state in
            defer {
                state.continuation = nil
                state.done = true
            }
            return (state.continuation, state.done ? [] : state.tasks)
        }
        continuation?.resume(with: result)
        tasks.forEach { $0.cancel() }
    }
}
