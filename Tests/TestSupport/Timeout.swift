/// Runs `operation`, failing with `HarnessError.timedOut` if it has not finished within `seconds`.
/// A guard against hanging tests, never a way to wait for a timer: the operation itself awaits
/// the event it needs.
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ what: String = "operation",
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw HarnessError.timedOut(what)
        }
        defer { group.cancelAll() }
        return try await group.next()!
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
