/// An incident as the services know it: why, how urgent, and whether a duress PIN raised it.
public struct IncidentFacts: Hashable, Sendable {
    public var reason: EscalationReason
    public var level: EscalationLevel
    /// Raised (or turned red) by the walker's duress PIN: someone may be watching the phone.
    public var duress: Bool

    public init(reason: EscalationReason, level: EscalationLevel, duress: Bool) {
        self.reason = reason
        self.level = level
        self.duress = duress
    }

    public init(_ escalation: EscalationEvent) {
        self.init(reason: escalation.reason, level: escalation.level, duress: escalation.duress)
    }
}

/// How an action turned out, before it is put into words for the device.
public enum ActionOutcome: Hashable, Sendable {
    case applied
    /// Ended an incident with the duress PIN: applied as a cancel for the device, red behind it.
    case appliedUnderDuress
    case refused(ActionError)
}

/// The one rule for what a walker's device may be told about an incident. Every feature that
/// tells the device anything (its status, action results, alerts, delivery receipts, check-in
/// prompts, and later acknowledgements, desk views, OwnTracks modes) asks here, so none of them
/// can give a duress PIN away: after a duress PIN the device must see exactly what it would
/// after a cancel, in content and in timing, while contacts see a red incident.
public enum DeviceDisclosure {
    /// The incident the device may know about: a duress incident is, for the device, no incident.
    public static func visible(_ incident: IncidentFacts?) -> IncidentFacts? {
        guard let incident, !incident.duress else { return nil }
        return incident
    }

    /// Whether the walker's OwnTracks app should be held in move mode (fixes every few seconds):
    /// only while an incident is open and visible to the device. A duress incident stays open (red,
    /// for contacts) after the device was shown a cancel, so it answers false, exactly as after a
    /// cancel: the app drops back to its usual mode, and nothing on the phone shows the alarm is on.
    public static func owntracksMoveMode(for incident: IncidentState?) -> Bool {
        guard let incident, incident.state == .open else { return false }
        return visible(IncidentFacts(reason: incident.reason, level: incident.level, duress: incident.duress)) != nil
    }

    /// Whether the monitoring desk may tell the device something about `incident` now (who looked
    /// at it, that the desk is on it, that the desk closed it), given the walker's incident as the
    /// services know it (`current`, from `_incidents/{w}`). Not while that incident is open under
    /// duress: the device saw it cancelled, and a word from the desk would show it is not. Once it
    /// is closed (or a later incident replaced it), the walker may learn who looked.
    public static func deskMayTell(about incident: String, current: IncidentState?) -> Bool {
        guard let current, current.incident == incident, current.state == .open else { return true }
        return visible(IncidentFacts(reason: current.reason, level: current.level, duress: current.duress)) != nil
    }

    /// Whether anything about this escalation (its alert, its receipts) may reach the device.
    public static func mayTellDevice(about escalation: EscalationEvent) -> Bool {
        visible(IncidentFacts(escalation)) != nil
    }

    /// The answer on `{w}/action/result`: a duress cancel gets the very bytes a cancel gets.
    public static func answer(id: String, _ outcome: ActionOutcome, warnings: [String] = []) -> ActionResult {
        let id: String? = id.isEmpty ? nil : id
        let warnings: [String]? = warnings.isEmpty ? nil : warnings
        switch outcome {
        case .applied, .appliedUnderDuress:
            return ActionResult(id: id, ok: true, warnings: warnings)
        case .refused(let error):
            return ActionResult(id: id, ok: false, error: error, warnings: warnings)
        }
    }
}
