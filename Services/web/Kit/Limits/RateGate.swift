import Synchronization

/// Asks the rate limits whether an attempt may go ahead. A protocol so the application need not
/// be generic over the clock.
public protocol RateGating: Sendable {
    /// Nil when every key may make an attempt (each spends one); otherwise how long until the
    /// most limited one may, and nothing is spent.
    func admit(_ attempts: [(RateLimits.Scope, String)]) -> Duration?
}

/// The limiters of ``RateLimits`` on a clock: `ContinuousClock` in the service, a manual clock
/// in tests.
public final class RateGate<C: Clock>: RateGating where C.Duration == Duration {
    private let clock: C
    private let limiters: Mutex<[RateLimits.Scope: RateLimiter<C.Instant>]>

    public init(limits: RateLimits, clock: C) {
        self.clock = clock
        limiters = Mutex(limits.rules.mapValues { RateLimiter(rule: $0, maxKeys: limits.maxKeys) })
    }

    public func admit(_ attempts: [(RateLimits.Scope, String)]) -> Duration? {
        let now = clock.now
        return limiters.withLock { limiters in
            var wait: Duration?
            for (scope, key) in attempts {
                if case .limited(let retryAfter) = limiters[scope]?.check(key, at: now) {
                    wait = max(wait ?? .zero, retryAfter)
                }
            }
            guard wait == nil else { return wait }
            for (scope, key) in attempts { limiters[scope]?.spend(key, at: now) }
            return nil
        }
    }

    /// Keys remembered in `scope` (tests of the memory bound).
    public func count(_ scope: RateLimits.Scope) -> Int {
        limiters.withLock { $0[scope]?.count ?? 0 }
    }
}
