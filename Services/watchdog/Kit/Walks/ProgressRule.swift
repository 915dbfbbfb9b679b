import SafeWalkCore

/// Whether a walker is still getting closer to where they said they were going.
///
/// Closer means proven closer: the distance to the destination dropped below the best so far by
/// more than the fix's accuracy (a fix can be off by that much, so less proves nothing), and never
/// by less than the movement threshold (`SAFEWALK_MOVEMENT_METERS`, 5 m: what counts as moving at
/// all, so a device claiming 0 m accuracy cannot turn jitter into progress). Like movement, poor or
/// unknown accuracy can make a walker look stalled, never look closer. The best distance moves only
/// when a fix proves progress, so slow, steady progress adds up until it is proven.
enum ProgressRule {
    /// Whether a fix `distance` metres away with this accuracy proves the walker closer than `best`.
    static func provesCloser(distance: Double, accuracy: Double?, best: Double, margin: Double) -> Bool {
        guard let accuracy, accuracy.isFinite, accuracy >= 0, distance.isFinite else { return false }
        return best - distance > max(accuracy, margin)
    }

    /// The progress after a fix received at `now`, `distance` metres from the destination. The first
    /// fix of known accuracy sets the best distance without proving anything.
    static func after(
        _ progress: WalkProgress, distance: Double, accuracy: Double?, margin: Double, now: EpochSeconds
    ) -> WalkProgress {
        var next = progress
        guard let best = progress.bestDistance else {
            if let accuracy, accuracy.isFinite, accuracy >= 0, distance.isFinite { next.bestDistance = distance }
            return next
        }
        guard provesCloser(distance: distance, accuracy: accuracy, best: best, margin: margin) else { return next }
        next.bestDistance = distance
        next.closerAt = now
        next.stallSince = now
        next.stallPrompted = false
        return next
    }

    /// When this stall's early check-in is due (`stallAfter` without progress); nil once it went out.
    static func stallPromptAt(_ progress: WalkProgress, stallAfter: Double) -> EpochSeconds? {
        progress.stallPrompted ? nil : progress.stallSince + stallAfter
    }

    /// Whether a fix proved the walker closer within the last `stallAfter` seconds (strictly: at
    /// exactly `stallAfter` the stall is due, so the walker is no longer closing in).
    static func isClosingIn(_ progress: WalkProgress, now: EpochSeconds, stallAfter: Double) -> Bool {
        guard let closerAt = progress.closerAt else { return false }
        return now - closerAt < stallAfter
    }
}
