import SafeWalkCore

/// What the watchdog knows of its own link to the broker, and what it lets its clocks do.
///
/// A watchdog cut off from the broker (its node partitioned, the broker stalled, the watchdog
/// itself frozen) hears no replies and its check-ins reach no phone, yet left alone its clocks
/// run: every walker whose check-in falls in the cut escalates, and every contact of every walker
/// is texted at once (docs/SCALING.md, "A network partition"). So a deadline fires only if the
/// broker was heard from (a message, or the acknowledgement of the watchdog's heartbeat) no more
/// than `slack` before it; later ones wait. When the broker is heard from again after a silence
/// longer than `cutAfter`, the silence is credited to every clock (``ClockCredit``): the walker
/// gets the check-in the cut swallowed and as long to answer it. Nothing could have reached the
/// walker's contacts during the cut anyway; a true alarm comes later by the cut's length.
///
/// Pure: the shell tells it when the broker was heard from and asks what may fire.
public struct BrokerLink: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// How often the shell asks the broker for a word (a QoS 1 heartbeat), whatever else
        /// is heard.
        public var heartbeat: Double
        /// Deadlines up to this long after the last word from the broker fire: more than one
        /// heartbeat, so a live link never holds a deadline.
        public var slack: Double
        /// A silence longer than this was a cut, and is credited to every clock.
        public var cutAfter: Double

        public init(heartbeat: Double = 1, slack: Double = 2, cutAfter: Double) {
            self.heartbeat = heartbeat
            self.slack = slack
            self.cutAfter = cutAfter
        }
    }

    public let settings: Settings
    /// When the broker was last heard from.
    public private(set) var heardAt: EpochSeconds

    /// At start the link counts as heard: deadlines that passed while the watchdog was down
    /// fire at once, as they always have (the restart is not a cut the watchdog saw).
    public init(settings: Settings, heardAt: EpochSeconds) {
        self.settings = settings
        self.heardAt = heardAt
    }

    /// The latest deadline that may fire at `now`.
    public func firesUpTo(_ now: EpochSeconds) -> EpochSeconds { min(now, heardAt + settings.slack) }

    /// The broker was heard from at `at`. Returns the silence to credit to every clock when it
    /// was longer than `cutAfter`, else nil. An earlier word than one already known changes nothing.
    public mutating func heard(at: EpochSeconds) -> Double? {
        guard at > heardAt else { return nil }
        let silence = at - heardAt
        heardAt = at
        return silence > settings.cutAfter ? silence : nil
    }

    /// Every word heard since the last call, in the order heard: only the gaps between them are
    /// silences. A loop that reads them late, busy with one batch for longer than `cutAfter`,
    /// must not take its own delay for the broker's: credited, it would move every alarm on by
    /// it, and a loop that stayed that busy would put them off for as long as it did.
    public mutating func heard(inOrder words: some Sequence<EpochSeconds>) -> [Double] {
        words.compactMap { heard(at: $0) }
    }
}
