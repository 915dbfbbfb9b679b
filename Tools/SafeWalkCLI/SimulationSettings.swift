import SafeWalkCore

/// What the simulated tracker and walker do, independent of MQTT connection details.
public struct SimulationSettings: Sendable {
    public var walker: WalkerID
    public var prefix: String
    /// Seconds between fixes.
    public var interval: Double
    /// Seconds after the start when the walker stops answering (nil: always answers).
    public var goSilentAfter: Double?
    /// Whether the walker also stands still once silent (fixes keep coming, from one place).
    public var stopMovingWhenSilent: Bool
    /// `startWalk(destination, minutes)` instead of `start`.
    public var walk: (destination: String, minutes: Double)?
    /// Seconds to run (nil: until cancelled).
    public var duration: Double?
    /// Send `stop` and presence `offline` at the end.
    public var stopAtEnd: Bool
    /// GPS accuracy reported with each fix, metres.
    public var accuracy: Double
    /// How actions are repeated until answered; nil: published once, answers not awaited.
    public var actionRepeat: ActionRepeat?
    /// Sets the PINs at the start (`setPins`).
    public var pins: PINSetup?
    /// Arms the hold-to-release switch at the start.
    public var hold: HoldPlan?
    /// Seconds after the start when the walker sends `needHelp`.
    public var needHelpAfter: Double?
    /// Seconds after the start when the walker sends `imSafe`.
    public var imSafeAfter: Double?
    /// The preset message sent with `needHelp` and `hold`.
    public var note: String?
    /// The PIN the final `stop` and any `imSafe` carry.
    public var endPIN: PIN?

    public init(
        walker: WalkerID, prefix: String = Topic.defaultPrefix, interval: Double = 5,
        goSilentAfter: Double? = nil, stopMovingWhenSilent: Bool = false,
        walk: (destination: String, minutes: Double)? = nil, duration: Double? = nil,
        stopAtEnd: Bool = true, accuracy: Double = 3
    ) {
        self.walker = walker
        self.prefix = prefix
        self.interval = interval
        self.goSilentAfter = goSilentAfter
        self.stopMovingWhenSilent = stopMovingWhenSilent
        self.walk = walk
        self.duration = duration
        self.stopAtEnd = stopAtEnd
        self.accuracy = accuracy
    }
}

/// A `setPins` at the start: the new PINs, and the current cancel PIN when some are set.
public struct PINSetup: Sendable, Equatable {
    public var change: PINChange
    public var current: PIN?

    public init(change: PINChange, current: PIN? = nil) {
        self.change = change
        self.current = current
    }
}

/// The hold-to-release button, pressed at the start: `hold`, then a `holding` heartbeat every
/// `heartbeat` seconds until `endsAfter` seconds after the start, when `end` happens.
public struct HoldPlan: Sendable, Equatable {
    public enum End: Sendable, Equatable {
        /// The finger comes off: `release`, the panic at once.
        case release
        /// The phone stops sending heartbeats (battery, a thrown phone) without a `release`:
        /// the watchdog raises the panic when two heartbeats are missing.
        case drop
        /// The finger slides off: `cancelHold`, disarmed silently.
        case cancel
    }

    public var level: EscalationLevel
    public var heartbeat: Double
    public var end: End
    public var endsAfter: Double

    public init(level: EscalationLevel, heartbeat: Double = 2, end: End, endsAfter: Double) {
        self.level = level
        self.heartbeat = heartbeat
        self.end = end
        self.endsAfter = endsAfter
    }
}
