import SafeWalkCore

/// Whether a watch follows the walker's location (`{w}/status`'s `location`): `start` and
/// `startWalk` with `"location": false` turn it off for the watch; `background` on `{w}/presence`
/// pauses it until the next fix. Without location, `noMovement` and a walk's progress rules never
/// fire (``Watch/followsLocation``); check-ins, `noReply` and the ETA apply as always.
extension WatchMachine {
    /// A `start` or `startWalk`'s `location`, applied after the watch (if new) began. Absent, a new
    /// watch follows the location and a running one keeps its setting. Turned back on, the
    /// movement clocks start from now: fixes while it was off proved nothing.
    func setLocation(_ wanted: Bool?, newWatch: Bool, _ watch: inout Watch, now: EpochSeconds) {
        let followed = watch.followsLocation
        watch.usesLocation = wanted ?? (newWatch ? true : watch.usesLocation)
        if !followed, watch.followsLocation { restartMovementClocks(&watch, now: now) }
    }

    /// `background`: the browser stops the app's location while it is hidden, so standing still is
    /// not evidence of anything until the next fix. The latest `background` counts, so a fix taken
    /// while the app was briefly on screen again cannot end the pause after it.
    func pauseLocation(_ watch: inout Watch, now: EpochSeconds) {
        watch.locationPausedAt = now
    }

    /// A fix taken (device time, `tst`) at or after the pause ends it, and the movement clocks
    /// restart from its arrival. An older fix, one still on its way through location-ingest when
    /// the app went to the background, or a retained position delivered again, does not: it would
    /// restart the clock just before the fixes stopped, and `noMovement` would follow for a walker
    /// who only put the phone away. A device clock behind the server's delays the resumption by
    /// that much; ahead, an old fix may end the pause early.
    func resumeLocationIfPaused(after fix: LocationFix, _ watch: inout Watch, now: EpochSeconds) {
        guard let pausedAt = watch.locationPausedAt, fix.tst >= pausedAt else { return }
        watch.locationPausedAt = nil
        if watch.followsLocation { restartMovementClocks(&watch, now: now) }
    }

    /// Movement and a walk's stall are counted again from now: the time without location proved
    /// nothing, either way.
    private func restartMovementClocks(_ watch: inout Watch, now: EpochSeconds) {
        guard watch.isWatching else { return }
        watch.timers.lastMovedAt = max(watch.timers.lastMovedAt ?? now, now)
        if let since = watch.progress?.stallSince { watch.progress?.stallSince = max(since, now) }
    }
}
