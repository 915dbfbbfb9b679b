import SafeWalkCore

/// A token bucket per key (a client address, an account), as a value: no clock, no lock, time is
/// a parameter, so a test runs an hour of attempts in microseconds.
///
/// Each key may spend `rule.burst` attempts at once and earns them back evenly over
/// `rule.period`. Memory is bounded: at most `maxKeys` keys are remembered. A key whose bucket has
/// filled again is the same as a key never seen, so it is dropped first; if every remembered key
/// is still draining, the tenth least recently used are forgotten (they start again with a full
/// bucket: a flood from more addresses than `maxKeys` could already get past a per-address limit,
/// and the per-account limit still holds).
public struct RateLimiter<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    public enum Decision: Hashable, Sendable {
        case allowed
        /// Refused; one attempt will be earned back after this long.
        case limited(retryAfter: Duration)
    }

    struct Bucket: Sendable {
        var tokens: Double
        var updated: Instant
    }

    public let rule: RateRule
    public let maxKeys: Int
    private(set) var buckets: [String: Bucket] = [:]

    public init(rule: RateRule, maxKeys: Int = 50_000) {
        self.rule = rule
        self.maxKeys = max(1, maxKeys)
    }

    /// How many keys are remembered (for tests of the bound).
    public var count: Int { buckets.count }

    /// Whether `key` may make an attempt now, without spending one.
    public func check(_ key: String, at now: Instant) -> Decision {
        let tokens = level(of: key, at: now)
        if tokens >= 1 { return .allowed }
        return .limited(retryAfter: .seconds((1 - tokens) * rule.secondsPerToken))
    }

    /// Spends one attempt of `key` (call after ``check(_:at:)`` allowed it).
    public mutating func spend(_ key: String, at now: Instant) {
        let tokens = level(of: key, at: now)
        if buckets[key] == nil && buckets.count >= maxKeys { makeRoom(at: now) }
        buckets[key] = Bucket(tokens: max(0, tokens - 1), updated: now)
    }

    /// ``check(_:at:)`` and, when allowed, ``spend(_:at:)``.
    public mutating func take(_ key: String, at now: Instant) -> Decision {
        let decision = check(key, at: now)
        if decision == .allowed { spend(key, at: now) }
        return decision
    }

    private func level(of key: String, at now: Instant) -> Double {
        guard let bucket = buckets[key] else { return Double(rule.burst) }
        let earned = max(0, bucket.updated.duration(to: now).seconds) / rule.secondsPerToken
        return min(Double(rule.burst), bucket.tokens + earned)
    }

    private mutating func makeRoom(at now: Instant) {
        let full = Double(rule.burst)
        buckets = buckets.filter { level(of: $0.key, at: now) < full }
        guard buckets.count >= maxKeys else { return }
        let oldest = buckets.sorted { $0.value.updated < $1.value.updated }.prefix(max(1, maxKeys / 10))
        for (key, _) in oldest { buckets.removeValue(forKey: key) }
    }
}

/// How many attempts a key may make at once (`burst`) and how long it takes to earn them all
/// back (`period`).
public struct RateRule: Hashable, Sendable {
    public var burst: Int
    public var period: Duration

    public init(burst: Int, per period: Duration) {
        self.burst = max(1, burst)
        self.period = period > .zero ? period : .seconds(1)
    }

    /// Seconds to earn back one attempt.
    var secondsPerToken: Double { period.seconds / Double(burst) }
}
