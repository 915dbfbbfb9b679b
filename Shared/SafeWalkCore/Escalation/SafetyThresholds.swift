/// Every timing and distance the safety rules use, with the defaults of docs/CONTRACT.md.
/// Durations are seconds (fractions allowed), distances metres.
public struct SafetyThresholds: Codable, Hashable, Sendable {
    /// Seconds between check-in prompts (`SAFEWALK_CHECKIN_INTERVAL`).
    public var checkInInterval: Double
    /// No reply for this long, counted from the last reply, `imSafe` or the start of the watch,
    /// escalates (`SAFEWALK_NO_REPLY_AFTER`).
    public var noReplyAfter: Double
    /// No movement while watched escalates after this (`SAFEWALK_NO_MOVEMENT_AFTER`).
    public var noMovementAfter: Double
    /// What counts as movement (`SAFEWALK_MOVEMENT_METERS`).
    public var movementMeters: Double
    /// An offline Last Will during a watch escalates after this (`SAFEWALK_OFFLINE_GRACE`).
    public var offlineGrace: Double
    /// A held help button sends a heartbeat at least this often; two missed intervals raise the
    /// panic (`SAFEWALK_HOLD_HEARTBEAT`).
    public var holdHeartbeat: Double
    /// Wrong PINs in a row, while ending an incident, that escalate red (`SAFEWALK_PIN_ATTEMPTS`).
    public var wrongPinLimit: Int

    public init(
        checkInInterval: Double = 60, noReplyAfter: Double = 120, noMovementAfter: Double = 120,
        movementMeters: Double = 5, offlineGrace: Double = 60, holdHeartbeat: Double = 3, wrongPinLimit: Int = 3
    ) {
        self.checkInInterval = checkInInterval
        self.noReplyAfter = noReplyAfter
        self.noMovementAfter = noMovementAfter
        self.movementMeters = movementMeters
        self.offlineGrace = offlineGrace
        self.holdHeartbeat = holdHeartbeat
        self.wrongPinLimit = wrongPinLimit
    }

    /// The defaults of docs/CONTRACT.md ("Shared settings").
    public static let defaults = SafetyThresholds()

    /// The names of any values that are not finite and positive; empty when all are usable.
    /// Services should refuse to start otherwise.
    public var invalidFields: [String] {
        let fields: [(String, Double)] = [
            ("checkInInterval", checkInInterval), ("noReplyAfter", noReplyAfter),
            ("noMovementAfter", noMovementAfter), ("movementMeters", movementMeters),
            ("offlineGrace", offlineGrace), ("holdHeartbeat", holdHeartbeat), ("wrongPinLimit", Double(wrongPinLimit)),
        ]
        return fields.filter { !($0.1.isFinite && $0.1 > 0) }.map(\.0)
    }
}
