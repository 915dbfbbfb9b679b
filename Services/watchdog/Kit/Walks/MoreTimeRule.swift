import SafeWalkCore

/// `extendWhileProgressing`: an ETA that comes while the walker is still getting closer asks
/// "need more time?" once instead of escalating `walkOverdue` at once.
///
/// The question is a check-in prompt, and its answer window is the one every prompt states: its
/// `replyBy`, the `noReply` deadline. Any reply or `imSafe` before it gives the walk its original
/// length again, counted from the answer (counted from the old ETA, a short walk answered late
/// would be overdue again the moment it was extended). Silence until `replyBy` is `walkOverdue`
/// (due with `noReply` at that instant, and first among equals). Only once: the next ETA is
/// `walkOverdue` at once, as without the flag.
enum MoreTimeRule {
    /// Whether to ask at the ETA, `now`, rather than escalate: the walk wants it, has not had it,
    /// the walker is closing in, and there is still time to answer before `replyBy`.
    static func shouldAsk(
        _ progress: WalkProgress, now: EpochSeconds, replyBy: EpochSeconds, stallAfter: Double
    ) -> Bool {
        progress.extendWhileProgressing && !progress.extended && progress.moreTimeAskedAt == nil && now < replyBy
            && ProgressRule.isClosingIn(progress, now: now, stallAfter: stallAfter)
    }

    /// The walk's new ETA when the walker answers at `now`.
    static func extendedETA(_ progress: WalkProgress, answeredAt now: EpochSeconds) -> EpochSeconds {
        now + progress.duration
    }
}
