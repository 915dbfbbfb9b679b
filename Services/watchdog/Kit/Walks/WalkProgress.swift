import SafeWalkCore

/// What the watchdog follows of a walk that knows where it is going (`startWalk` with `to`):
/// the rule clocks of ``ArrivalRule``, ``ProgressRule`` and ``MoreTimeRule``. A walk without `to`
/// has none, and its rules are the old ones (overdue at the ETA, nothing else).
public struct WalkProgress: Hashable, Sendable {
    /// The walk's length as asked for, in seconds: what a granted "need more time?" gives again.
    public var duration: Double
    /// `startWalk`'s `extendWhileProgressing`.
    public var extendWhileProgressing: Bool
    /// The distance to the destination the walker has proven, in metres: the first fix with a
    /// known accuracy, then each fix that proved them closer. Nil before any.
    public var bestDistance: Double?
    /// When a fix last proved the walker closer; nil while none has.
    public var closerAt: EpochSeconds?
    /// When the current stretch without progress began: the walk's start, the last fix that
    /// proved progress, or `imSafe` (which restarts every clock).
    public var stallSince: EpochSeconds
    /// Whether this stretch's early check-in has gone out: one per stall, not one per fix.
    public var stallPrompted: Bool
    /// Fixes in a row at the destination; any fix not at it resets the count.
    public var fixesAtDestination: Int
    /// When "need more time?" was asked at the ETA; nil when it was not, or has been answered.
    public var moreTimeAskedAt: EpochSeconds?
    /// Whether the walk was extended already: only once.
    public var extended: Bool

    public init(
        duration: Double, extendWhileProgressing: Bool, stallSince: EpochSeconds, bestDistance: Double? = nil,
        closerAt: EpochSeconds? = nil, stallPrompted: Bool = false, fixesAtDestination: Int = 0,
        moreTimeAskedAt: EpochSeconds? = nil, extended: Bool = false
    ) {
        self.duration = duration
        self.extendWhileProgressing = extendWhileProgressing
        self.bestDistance = bestDistance
        self.closerAt = closerAt
        self.stallSince = stallSince
        self.stallPrompted = stallPrompted
        self.fixesAtDestination = fixesAtDestination
        self.moreTimeAskedAt = moreTimeAskedAt
        self.extended = extended
    }

    /// A walk starting at `now` for `duration` seconds.
    public static func starting(at now: EpochSeconds, duration: Double, extendWhileProgressing: Bool) -> WalkProgress {
        WalkProgress(duration: duration, extendWhileProgressing: extendWhileProgressing, stallSince: now)
    }
}
