import SafeWalkCore

/// How an incident's ladder climbs when nobody acknowledges (docs/CONTRACT.md, "Incidents"): tier 1
/// at once, tier 2 (backup contacts) after ``tierTwoWait``, tier 3 (the dispatch webhook) after a
/// further ``tierThreeWait``; everyone reached so far is reminded every ``reminderInterval``; an
/// acknowledgement stops all of it for ``resumeAfterAcknowledgement``.
public struct LadderSettings: Hashable, Sendable {
    /// Waits before tier 2, by level: a red incident cannot wait as long as an amber one.
    public var tierTwoWait: [EscalationLevel: Duration]
    /// Waits after tier 2 before tier 3, by level.
    public var tierThreeWait: [EscalationLevel: Duration]
    public var reminderInterval: Duration
    public var resumeAfterAcknowledgement: Duration

    public init(
        tierTwoWait: [EscalationLevel: Duration] = [.red: .seconds(120), .amber: .seconds(600)],
        tierThreeWait: [EscalationLevel: Duration] = [.red: .seconds(120), .amber: .seconds(600)],
        reminderInterval: Duration = .seconds(300),
        resumeAfterAcknowledgement: Duration = .seconds(600)
    ) {
        self.tierTwoWait = tierTwoWait
        self.tierThreeWait = tierThreeWait
        self.reminderInterval = reminderInterval
        self.resumeAfterAcknowledgement = resumeAfterAcknowledgement
    }

    /// The wait before `tier` is reached from the one below it, at `level`.
    func wait(before tier: LadderTier, at level: EscalationLevel) -> Duration {
        switch tier {
        case .first: .zero
        case .backups: tierTwoWait[level] ?? .seconds(120)
        case .dispatch: tierThreeWait[level] ?? .seconds(120)
        }
    }
}

/// Who a tier reaches.
public enum LadderTier: Int, CaseIterable, Comparable, Hashable, Sendable, Codable {
    /// Every phone contact and every circle user marked SOS: at once, never waiting.
    case first = 1
    /// Contacts marked as backups ("only if nobody answers").
    case backups = 2
    /// The dispatch webhook (a monitoring centre).
    case dispatch = 3

    public static func < (lhs: LadderTier, rhs: LadderTier) -> Bool { lhs.rawValue < rhs.rawValue }

    var next: LadderTier? { LadderTier(rawValue: rawValue + 1) }
}
