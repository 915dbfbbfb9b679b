import SafeWalkCore

/// A silence of the broker credited to one watch: every clock the watch runs moves on by it, as
/// if the cut had not happened (``BrokerLink``). Pure.
///
/// Each rule counts from a moment (``EscalationRules``, ``HoldSwitch``, ``WalkProgress``); that
/// moment moves by `seconds`, so each deadline moves by exactly `seconds`. A pending check-in
/// stays pending: libmosquitto sends the prompt the cut held up when it reconnects.
public enum ClockCredit {
    public static func moved(_ watch: Watch, by seconds: Double) -> Watch {
        var moved = watch
        if let since = watch.timers.watchedSince {
            // The rules count from the later of the watch's start and these: moving the later one
            // moves the deadline, and a start that was later still is kept as the floor.
            moved.timers.lastCheckInAt = max(since, watch.timers.lastCheckInAt ?? since) + seconds
            moved.timers.lastMovedAt = max(since, watch.timers.lastMovedAt ?? since) + seconds
            moved.timers.offlineSince = watch.timers.offlineSince.map { max(since, $0) + seconds }
            moved.timers.walkETA = watch.timers.walkETA.map { $0 + seconds }
        }
        if var progress = watch.progress {
            progress.stallSince += seconds
            progress.closerAt = progress.closerAt.map { $0 + seconds }
            progress.moreTimeAskedAt = progress.moreTimeAskedAt.map { $0 + seconds }
            moved.progress = progress
        }
        moved.hold?.lastBeatAt += seconds
        return moved
    }
}
