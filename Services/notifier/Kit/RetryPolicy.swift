/// How often and how patiently one recipient is retried: exponential backoff with jitter.
///
/// Pure: the random draw is passed in, so tests pin it and production passes a real one.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts per recipient, the first included; then a failed receipt.
    public var maxAttempts: Int
    /// The delay before the second attempt (before jitter), in seconds.
    public var baseDelay: Double
    /// No delay grows beyond this, in seconds.
    public var maxDelay: Double

    /// 10 attempts with the default 1 s → 60 s backoff span at least 121.5 s of waiting (all
    /// jitter draws at their lowest), so a gateway outage of up to two minutes loses no text.
    /// (It was 5: ≤ 15 s of backoff, and a one-minute 500 outage in the e2e fault injection
    /// failed every text due in it for good.)
    public static let defaultMaxAttempts = 10

    public init(maxAttempts: Int = RetryPolicy.defaultMaxAttempts, baseDelay: Double = 1, maxDelay: Double = 60) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// The wait after failed attempt number `attempt` (1-based): `base * 2^(attempt-1)`, capped,
    /// then scaled into [50 %, 100 %] by `random` in 0..<1 ("equal jitter"). Half the delay is
    /// kept so a flapping gateway is not hammered; the other half spreads recipients apart so
    /// they do not retry in lock-step.
    public func delay(afterAttempt attempt: Int, random: Double) -> Double {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        let ceiling = min(maxDelay, baseDelay * Double(1 << Int(exponent)))
        let unit = random.isFinite ? min(max(random, 0), 1) : 0.5
        return ceiling * (0.5 + 0.5 * unit)
    }

    /// Whether another attempt may follow attempt number `attempt`.
    public func allowsAnother(after attempt: Int) -> Bool { attempt < maxAttempts }
}
