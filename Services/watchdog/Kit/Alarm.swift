import SafeWalkCore
import Synchronization

/// One pending wake-up for the event loop: sleeps on the injected clock until the earliest
/// deadline, then pokes the queue. Re-arming for a different deadline cancels the old sleep.
final class Alarm<Element: Sendable>: Sendable {
    private struct Armed {
        var deadline: EpochSeconds
        var task: Task<Void, Never>
    }

    private let clock: any WatchClock
    private let queue: WorkQueue<Element>
    private let armed = Mutex<Armed?>(nil)

    init(clock: any WatchClock, queue: WorkQueue<Element>) {
        self.clock = clock
        self.queue = queue
    }

    func arm(_ deadline: EpochSeconds?) {
        let old = armed.withLock { armed -> Task<Void, Never>? in
            if armed?.deadline == deadline { return nil }
            let previous = armed?.task
            armed = deadline.map { deadline in
                Armed(
                    deadline: deadline,
                    task: Task { [clock, queue] in
                        do {
                            try await clock.sleep(until: deadline)
                        } catch {
                            return  // cancelled: a different deadline took over
                        }
                        self.fired(deadline)
                        queue.poke()
                    })
            }
            return previous
        }
        old?.cancel()
    }

    /// Forgets a deadline once it has fired, so the same deadline can be armed again.
    private func fired(_ deadline: EpochSeconds) {
        armed.withLock { armed in
            if armed?.deadline == deadline { armed = nil }
        }
    }

    func cancel() {
        armed.withLock { armed in
            armed?.task.cancel()
            armed = nil
        }
    }
}
