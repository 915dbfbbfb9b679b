import SafeWalkCore
import SafeWalkService

/// What an incident means for the circle, pure: a walker's SOS contacts are alerted in their
/// inboxes and shown `{contact}/shared/{walker}` while it is open; when it closes they are told
/// it is over and the view is cleared. Event ids come from the incident, so reading the same
/// `_incidents/{w}` again (a restart, a redelivery) tells nobody twice.
enum IncidentSharing {
    static func decide(_ incident: IncidentState, graph: CircleGraph, now: EpochSeconds) -> CircleDecision {
        var decision = CircleDecision()
        let walker = incident.walker
        let shown = graph.viewers(of: walker)
        switch incident.state {
        case .open:
            let contacts = graph.sosContacts(of: walker)
            for contact in contacts {
                if shown[contact] != incident.incident {
                    decision.mutations.append(.show(walker: walker, viewer: contact, incident: incident.incident))
                }
                decision.deliver(alertEvent(walker, incident, graph: graph, now: now), to: contact)
            }
            // A view left from an earlier incident (closed while this service was down) ends.
            for (viewer, _) in shown where !contacts.contains(viewer) {
                decision.mutations.append(.hide(walker: walker, viewer: viewer))
            }
            // The walker's own device: only what DeviceDisclosure allows, and never the services'
            // incident id (the phone sees its alert, not `_incidents/{w}`).
            let facts = IncidentFacts(reason: incident.reason, level: incident.level, duress: incident.duress)
            if contacts.isEmpty, DeviceDisclosure.visible(facts) != nil {
                decision.deliver(
                    InboxEvent(
                        id: "circleNotAlerted-\(TokenText.sha256Hex(incident.incident).prefix(16))",
                        type: .circleNotAlerted, from: walker, at: now,
                        text: InboxText.circleNotAlerted, level: incident.level, reason: incident.reason,
                        code: "noSOSContacts"),
                    to: walker)
            }
        case .closed:
            for (viewer, shownIncident) in shown.sorted(by: { $0.key < $1.key }) {
                decision.mutations.append(.hide(walker: walker, viewer: viewer))
                guard shownIncident == incident.incident else { continue }
                decision.deliver(
                    InboxEvent(
                        id: "allClear-\(incident.incident)", type: .allClear, from: walker,
                        at: incident.closedAt ?? now, text: InboxText.allClear(walker, at: incident.closedAt ?? now),
                        incident: incident.incident),
                    to: viewer)
            }
        }
        return decision
    }

    /// The alert for one SOS contact; its id names the level, so a raise from amber to red
    /// alerts again and a repeat of either does not.
    static func alertEvent(_ walker: WalkerID, _ incident: IncidentState, graph: CircleGraph, now: EpochSeconds)
        -> InboxEvent
    {
        InboxEvent(
            id: "alert-\(incident.incident)-\(incident.level.rawValue)", type: .alert, from: walker, at: now,
            text: InboxText.alert(walker, incident), incident: incident.incident, level: incident.level,
            reason: incident.reason, note: graph.notes[incident.incident], position: graph.positions[walker])
    }

    /// "I'm on it" for an incident someone sees, from the notifier's `_acks/result`: the views
    /// show who, and the other SOS contacts are told. Only the first stands, as on the ladder.
    static func acknowledged(
        walker: WalkerID, incident: String, by: String, graph: CircleGraph, now: EpochSeconds
    ) -> CircleDecision {
        var decision = CircleDecision()
        guard graph.incidents[walker]?.incident == incident, graph.acknowledgedBy[incident] == nil else {
            return decision
        }
        for (viewer, shownIncident) in graph.viewers(of: walker)
        where shownIncident == incident && viewer.rawValue != by {
            decision.deliver(
                InboxEvent(
                    id: "ack-\(incident)", type: .ack, from: walker, at: now,
                    text: InboxText.acknowledged(walker, by: by), incident: incident),
                to: viewer)
        }
        return decision
    }
}
