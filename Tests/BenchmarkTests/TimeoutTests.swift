import Synchronization
import TestSupport
import Testing

/// The harness's guard against hangs must not hang itself.
@Suite struct TimeoutTests {
    @Test func anOperationDeafToCancellationStillTimesOutAtItsDeadline() async throws {
        let parked = Mutex<UnsafeContinuation<Void, Never>?>(nil)
        let finished = Mutex(false)
        await #expect(throws: HarnessError.self) {
            try await withTimeout(0.2, "deaf operation") {
                // Ignores cancellation: only the test's resume below ends it.
                await withUnsafeContinuation { continuation in parked.withLock { $0 = continuation } }
                finished.withLock { $0 = true }
            }
        }
        #expect(finished.withLock { $0 } == false)
        try await eventually("the operation parked") { parked.withLock { $0 != nil } }
        parked.withLock { $0.take() }?.resume()
        try await eventually("the operation ended once let go") { finished.withLock { $0 } }
    }

    @Test func theOperationsResultAndErrorComeBackUnchanged() async throws {
        #expect(try await withTimeout(30) { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await withTimeout(30) { throw Refused() } }
    }

    @Test func cancellingTheCallerCancelsTheOperation() async throws {
        let started = Mutex(false)
        let waiting = Task {
            try await withTimeout(600) {
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(600))
            }
        }
        try await eventually("the operation started") { started.withLock { $0 } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}
