import SafeWalkCore
import Synchronization

/// One pending wake-up for a service's event loop: sleeps on the injected clock until the
/// earliest deadline, then calls `fire`. Arming a different deadline cancels the old sleep, so
/// the loop is woken exactly when something is due and never polls.
public final class DeadlineAlarm: Sendable {
    private struct Armed {
        var deadline: EpochSeconds
        var task: Task<Void, Never>
    }

    private let clock: any ServiceClock
    private let fire: @Sendable () -> Void
    private let armed = Mutex<Armed?>(nil)

    public init(clock: any ServiceClock, fire: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.fire = fire
    }

    /// Wakes the loop at `deadline` (nil: not at all), replacing any other deadline.
    public func arm(_ deadline: EpochSeconds?) {
        let old = armed.withLock { armed -> Task<Void, Never>? in
            if armed?.deadline == deadline { return nil }
            let previous = armed?.task
            armed = deadline.map { deadline in
                Armed(
                    deadline: deadline,
                    task: Task { [clock] in
                        do {
                            try await clock.sleep(until: deadline)
                        } catch {
                            return  // cancelled: a different deadline took over
                        }
                        self.fired(deadline)
                        self.fire()
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

    public func cancel() {
        armed.withLock { armed in
            armed?.task.cancel()
            armed = nil
        }
    }
}
