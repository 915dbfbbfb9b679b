import SafeWalkCore

/// One incident's ladder: where it has climbed to and what it is waiting for. A value the shell
/// persists after every step, so a restart resumes it exactly (no step lost, none repeated).
/// Times are `ContinuousClock`-free seconds since an epoch the caller chooses (the notifier's
/// wall clock), so a stored ladder survives a restart.
public struct Ladder: Codable, Hashable, Sendable {
    public struct Acknowledgement: Codable, Hashable, Sendable {
        public var by: String
        public var at: EpochSeconds
    }

    public let incident: String
    public private(set) var level: EscalationLevel
    public let openedAt: EpochSeconds
    /// The highest tier told so far.
    public private(set) var reached: LadderTier
    /// When `reached` was told (the next tier's wait counts from here).
    public private(set) var reachedAt: EpochSeconds
    /// When everyone reached was last told (first notice or reminder).
    public private(set) var remindedAt: EpochSeconds
    public private(set) var acknowledgement: Acknowledgement?
    public private(set) var closedAt: EpochSeconds?

    /// What the shell must do.
    public enum Step: Hashable, Sendable {
        /// Tell everyone of `tier` about the incident for the first time.
        case notify(LadderTier)
        /// Tell everyone of these tiers again (nobody has acknowledged).
        case remind([LadderTier])
        /// Tell the walker "`by` is on it" (through the one duress-aware function) and everyone
        /// else reached "`by` is handling it".
        case acknowledged(by: String)
        /// The acknowledgement is old and the incident still open: everyone reached is told again
        /// and the climb goes on from where it stopped.
        case resumed([LadderTier])
        /// Tell everyone reached, once, that the walker is safe.
        case allClear([LadderTier])
    }

    /// The incident opens: tier 1 at once.
    public static func open(incident: String, level: EscalationLevel, at now: EpochSeconds) -> (Ladder, [Step]) {
        let ladder = Ladder(
            incident: incident, level: level, openedAt: now, reached: .first, reachedAt: now, remindedAt: now,
            acknowledgement: nil, closedAt: nil)
        return (ladder, [.notify(.first)])
    }

    /// Everyone told so far, lowest tier first.
    public var tiersReached: [LadderTier] { LadderTier.allCases.filter { $0 <= reached } }

    public var isClosed: Bool { closedAt != nil }

    /// What is due next and when; nil once closed.
    enum Due: Hashable {
        case resume(EpochSeconds)
        case climb(LadderTier, EpochSeconds)
        case remind(EpochSeconds)

        var at: EpochSeconds {
            switch self {
            case .resume(let at), .climb(_, let at), .remind(let at): at
            }
        }
    }

    func due(_ settings: LadderSettings) -> Due? {
        guard !isClosed else { return nil }
        if let acknowledgement { return .resume(acknowledgement.at + settings.resumeAfterAcknowledgement.seconds) }
        let reminder = remindedAt + settings.reminderInterval.seconds
        guard let next = reached.next else { return .remind(reminder) }
        let climb = reachedAt + settings.wait(before: next, at: level).seconds
        // A climb tells the new tier and reminds no one: on a tie, the climb goes first.
        return climb <= reminder ? .climb(next, climb) : .remind(reminder)
    }

    /// The time at which ``advance(to:settings:)`` next has something to do; nil once closed.
    public func nextDeadline(_ settings: LadderSettings) -> EpochSeconds? { due(settings)?.at }

    /// Everything due by `now`, in order. Calling it again at the same time does nothing.
    public mutating func advance(to now: EpochSeconds, settings: LadderSettings) -> [Step] {
        var steps: [Step] = []
        while let due = due(settings), due.at <= now {
            switch due {
            case .resume(let at):
                // As if the climb had paused at the acknowledgement: the next tier's wait and the
                // reminders count from the resumption.
                acknowledgement = nil
                (reachedAt, remindedAt) = (at, at)
                steps.append(.resumed(tiersReached))
            case .climb(let tier, let at):
                (reached, reachedAt, remindedAt) = (tier, at, at)
                steps.append(.notify(tier))
            case .remind(let at):
                remindedAt = at
                steps.append(.remind(tiersReached))
            }
        }
        return steps
    }

    /// amber → red: the waits become red's, counted from when the current tier was reached (so a
    /// red that comes late may climb at once at the next ``advance``).
    public mutating func raise(to level: EscalationLevel) {
        guard !isClosed, level == .red else { return }
        self.level = level
    }

    /// Someone says "I'm on it". The first acknowledgement counts; another while it stands is
    /// told nothing new. A closed incident takes none.
    public mutating func acknowledge(by name: String, at now: EpochSeconds) -> [Step] {
        guard !isClosed, acknowledgement == nil else { return [] }
        acknowledgement = Acknowledgement(by: name, at: now)
        return [.acknowledged(by: name)]
    }

    /// The walker ended the incident: one all-clear to everyone reached, then nothing more.
    public mutating func close(at now: EpochSeconds) -> [Step] {
        guard !isClosed else { return [] }
        closedAt = now
        return [.allClear(tiersReached)]
    }
}
