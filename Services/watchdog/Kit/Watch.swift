import Foundation
import SafeWalkCore

/// An escalation that has fired and not yet been ended by `imSafe`, `stop` or `arrived`.
/// While it lasts, new triggers escalate again only if they are more severe (amber → red).
public struct Incident: Hashable, Sendable {
    /// The id of its first escalation, carried by every later one (``EscalationEvent/incident``).
    public var id: String
    /// The reason of the escalation that opened or last raised it.
    public var reason: EscalationReason
    public var level: EscalationLevel
    /// When it opened; a raise keeps it.
    public var at: EpochSeconds

    /// Without an `id`, a fresh one (for callers that make incidents by hand, such as benchmarks).
    public init(
        id: String = UUID().uuidString.lowercased(), reason: EscalationReason, level: EscalationLevel,
        at: EpochSeconds
    ) {
        self.id = id
        self.reason = reason
        self.level = level
        self.at = at
    }
}

/// The server-held switch of hold-to-release: armed by `hold`, kept alive by `holding`.
public struct HoldSwitch: Hashable, Sendable {
    public var level: EscalationLevel
    /// The last `hold` or `holding`; two missed heartbeat intervals after it raise the panic.
    public var lastBeatAt: EpochSeconds
    public var note: String?

    public init(level: EscalationLevel, lastBeatAt: EpochSeconds, note: String? = nil) {
        self.level = level
        self.lastBeatAt = lastBeatAt
        self.note = note
    }
}

/// The walker's PINs as salted PBKDF2 hashes (``PINHasher``); the PINs themselves are never kept.
public struct PINHashes: Hashable, Sendable {
    public var salt: [UInt8]
    public var cancel: [UInt8]
    public var duress: [UInt8]?

    public init(salt: [UInt8], cancel: [UInt8], duress: [UInt8]?) {
        self.salt = salt
        self.cancel = cancel
        self.duress = duress
    }
}

/// An action id the watchdog has applied, with the answer it gave, so a repeat is answered
/// again with the same words and applied only once.
public struct RememberedAction: Hashable, Sendable {
    public var id: String
    /// `ok`, or the refusal's code.
    public var answer: String

    public init(id: String, answer: String) {
        self.id = id
        self.answer = answer
    }

    init(id: String, outcome: ActionOutcome) {
        switch outcome {
        case .applied, .appliedUnderDuress: self.init(id: id, answer: "ok")
        case .refused(let error): self.init(id: id, answer: error.code)
        }
    }

    /// The outcome to answer a repeat with (a duress cancel was remembered as `ok`, like a cancel).
    var outcome: ActionOutcome {
        switch answer {
        case ActionError.pinRequired.code: .refused(.pinRequired)
        case ActionError.wrongPIN.code: .refused(.wrongPIN)
        case ActionError.notHolding.code: .refused(.notHolding)
        default: .applied
        }
    }
}

/// Everything the watchdog knows about one walker: the pure state the ``WatchMachine`` steps.
/// A walker who is not watched and has no incident still has a `Watch` (its last fix and
/// presence matter the moment it calls for help).
public struct Watch: Hashable, Sendable {
    public var walker: WalkerID
    /// The rule clocks; `timers.watchedSince` is nil when not watching.
    public var timers: WatchTimers
    public var walk: WalkPlan?
    /// The walk's arrival and progress clocks, when it knows where it is going (`to`).
    public var progress: WalkProgress?
    /// The incident the walker's device knows about.
    public var incident: Incident?
    /// When the shown state (`safe`/`checking`/`alert`, watched or not) last changed.
    public var stateSince: EpochSeconds
    /// The last position ingest reported, carried in escalations.
    public var lastFix: FixSummary?
    /// "Feeling nervous": check-ins come twice as often until the next plain answer.
    public var concerned: Bool
    /// The last few actions applied, so a redelivered or repeated action (say an old `imSafe`)
    /// is answered again but not applied twice.
    public var recentActions: [RememberedAction]
    /// The hold-to-release switch, while armed.
    public var hold: HoldSwitch?
    public var pins: PINHashes?
    /// Wrong PINs in a row; reset by the right one.
    public var wrongPins: Int
    /// A red incident raised by the duress PIN. The device never learns of it: for the device
    /// the incident was cancelled, and everything it sees follows ``incident`` as after a cancel.
    /// It keeps the id of the incident the walker seemed to cancel, and while it lasts every new
    /// incident takes its id (services see one incident). Only the cancel PIN ends it.
    public var duress: Incident?
    /// The watch's `location` setting (`start`/`startWalk` with `"location": false` turn it off):
    /// whether `noMovement` and a walk's progress rules run. Kept when no watch runs; a new watch
    /// sets it again.
    public var usesLocation: Bool
    /// When the app said `background` (``WatchMachine/pauseLocation(_:now:)``): location is paused
    /// until a fix taken after this; nil while it is not. The device's, so kept whether or not a
    /// watch runs.
    public var locationPausedAt: EpochSeconds?

    public init(
        walker: WalkerID, timers: WatchTimers = WatchTimers(), walk: WalkPlan? = nil, incident: Incident? = nil,
        stateSince: EpochSeconds = 0, lastFix: FixSummary? = nil, concerned: Bool = false,
        recentActions: [RememberedAction] = [], hold: HoldSwitch? = nil, pins: PINHashes? = nil, wrongPins: Int = 0,
        duress: Incident? = nil, progress: WalkProgress? = nil, usesLocation: Bool = true,
        locationPausedAt: EpochSeconds? = nil
    ) {
        self.walker = walker
        self.timers = timers
        self.walk = walk
        self.progress = progress
        self.incident = incident
        self.stateSince = stateSince
        self.lastFix = lastFix
        self.concerned = concerned
        self.recentActions = recentActions
        self.hold = hold
        self.pins = pins
        self.wrongPins = wrongPins
        self.duress = duress
        self.usesLocation = usesLocation
        self.locationPausedAt = locationPausedAt
    }

    /// How many actions are remembered for de-duplication.
    public static let rememberedActions = 8

    public var isWatching: Bool { timers.watchedSince != nil }

    /// The incident as the device may see it (``DeviceDisclosure``): never the duress one.
    var shownIncident: IncidentFacts? {
        DeviceDisclosure.visible(incident.map { IncidentFacts(reason: $0.reason, level: $0.level, duress: false) })
    }

    /// Whether the watch's location is followed, as `{w}/status` says it; nil when not watching.
    public var location: LocationState? {
        guard isWatching else { return nil }
        if !usesLocation { return .off }
        return locationPausedAt == nil ? .on : .paused
    }

    /// Whether fixes count now: `noMovement` and the walk's progress rules run only then.
    var followsLocation: Bool { location == .on }

    /// The state shown to the walker and contacts.
    public var state: WatchState {
        if shownIncident != nil { return .alert }
        if isWatching, timers.promptSentAt != nil { return .checking }
        return .safe
    }

    /// When the next check-in prompt is due: nil when not watching, while a prompt waits for an
    /// answer, or during an incident (the walker has been escalated; prompting adds nothing).
    public func nextCheckInAt(_ thresholds: SafetyThresholds) -> EpochSeconds? {
        guard incident == nil else { return nil }
        var effective = thresholds
        if concerned { effective.checkInInterval = thresholds.checkInInterval / 2 }
        return EscalationRules.nextCheckInAt(timers, thresholds: effective)
    }

    /// When the held switch fires if no heartbeat comes: two heartbeat intervals after the last.
    public func holdDeadline(_ thresholds: SafetyThresholds) -> EpochSeconds? {
        hold.map { $0.lastBeatAt + 2 * thresholds.holdHeartbeat }
    }

    /// The retained status for `{w}/status`, built only from what the device may see.
    public func status(_ thresholds: SafetyThresholds) -> WatchStatus {
        let shown = shownIncident
        return WatchStatus(
            state: state, watching: isWatching, since: stateSince, nextCheckInAt: nextCheckInAt(thresholds),
            reason: shown?.reason, level: shown?.level, walk: walk, location: location)
    }
}
