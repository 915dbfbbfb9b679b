/// The retry rule, kept pure so it is tested without a network or a clock: exactly one retry,
/// only for transient failures, and only if the wait plus a useful attempt still fits in what
/// is left of the timeout. Waiting past the timeout would break the promise that the walker
/// hears back within it, so a long `Retry-After` means giving up now, not retrying early.
public struct RetryPolicy: Hashable, Sendable {
    /// The wait before the retry when the server named none.
    public var backoff: Duration
    /// The least time a retry must have left after its wait to be worth making.
    public var minimumAttempt: Duration

    public init(backoff: Duration, minimumAttempt: Duration) {
        self.backoff = backoff
        self.minimumAttempt = minimumAttempt
    }

    public enum Decision: Hashable, Sendable {
        case retry(after: Duration)
        case giveUp
    }

    /// What to do after attempt number `attempt` (1-based) failed with `error`.
    /// - Parameters:
    ///   - retryAfter: the server's `Retry-After` (or `RetryInfo`), if it sent one.
    ///   - remaining: time left before the overall timeout.
    public func decision(
        after error: ChatModelError, attempt: Int, retryAfter: Duration?,
        remaining: Duration
    ) -> Decision {
        guard attempt == 1, error.isTransient else { return .giveUp }
        let wait = max(retryAfter ?? backoff, .zero)
        guard wait + minimumAttempt <= remaining else { return .giveUp }
        return .retry(after: wait)
    }
}
