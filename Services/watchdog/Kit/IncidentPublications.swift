import SafeWalkCore

extension Watch {
    /// The walker's incident as the services know it (`_incidents/{w}`, open), nil when there is
    /// none. The duress incident wins: the device saw it cancelled, the services see it open and
    /// red. Nothing here ever reaches the device, whose view is ``status(_:)`` through
    /// ``DeviceDisclosure``.
    public var incidentForServices: IncidentState? {
        if let duress {
            return IncidentState(
                incident: duress.id, walker: walker, state: .open, reason: duress.reason, level: .red, duress: true,
                openedAt: duress.at)
        }
        return incident.map {
            IncidentState(
                incident: $0.id, walker: walker, state: .open, reason: $0.reason, level: $0.level, duress: false,
                openedAt: $0.at)
        }
    }
}

/// When `_incidents/{w}` is published: once per change of ``Watch/incidentForServices``.
enum IncidentPublications {
    /// What takes the services from `before` to `after` (each open, or nil): nothing when nothing
    /// changed; the close of `before` (at `now`, by `closer`) when it is no longer the incident,
    /// always ahead of anything about a new one; then `after` when it opened or was raised.
    /// `reason` is the desk's, kept only when `closer` is `desk`.
    static func between(
        _ before: IncidentState?, _ after: IncidentState?, now: EpochSeconds, closer: IncidentState.Closer?,
        reason: DeskCloseReason? = nil
    ) -> [IncidentState] {
        guard before != after else { return [] }
        var published: [IncidentState] = []
        if let before, before.incident != after?.incident {
            published.append(before.closed(at: now, by: closer, reason: reason))
        }
        if let after { published.append(after) }
        return published
    }
}

extension IncidentState.Closer {
    /// The closer `event` would be if it ended an incident: only `imSafe`, `stop`, `arrived` and
    /// the desk's close do.
    init?(_ event: WatchEvent) {
        if case .deskClose = event {
            self = .desk
            return
        }
        guard case .action(let action, _) = event else { return nil }
        switch action.kind {
        case .imSafe: self = .imSafe
        case .stop: self = .stop
        case .arrived: self = .arrived
        default: return nil
        }
    }
}
