import SafeWalkCore
import SafeWalkService

/// One person (or the dispatch centre) an incident's ladder may reach, as the notifier stores it:
/// one row of `ladder_recipient`. The page token is a secret: it goes into the text or webhook
/// that tells them and nowhere else (the published state carries only its digest).
public struct LadderMember: Codable, Hashable, Sendable {
    /// The normalised number, or `dispatch` for the webhook.
    public var key: String
    public var name: String
    public var tier: LadderTier
    /// `sms-http` for a contact, `webhook` for dispatch.
    public var channel: String
    public var address: String?
    public var token: String
    public var toldAt: EpochSeconds?
    /// The latest word on the text that told them: `sent`, then the gateway's status.
    public var receipt: String?
    /// The reference of the latest text sent to them (the gateway's receipt names it).
    public var ref: String?
    /// Fallbacks already made after failed texts (a retried text, then dispatch).
    public var fallbacks: Int

    public static let dispatchKey = "dispatch"
    public var isDispatch: Bool { key == Self.dispatchKey }
    public var isTold: Bool { toldAt != nil }
}

/// An incident's ladder and what the shell needs beside it: one row of `ladder`, rewritten in
/// the same transaction as the jobs each of its steps admits.
public struct LadderRecord: Codable, Hashable, Sendable {
    public var ladder: Ladder
    public var walker: WalkerID
    /// The incident's latest escalation: its reason, level and last position word the texts.
    public var event: EscalationEvent
    /// Raised or turned red by a duress PIN at any point: the device is told nothing about it.
    public var duress: Bool
    /// The 4-digit code a reply names the incident by ("OK 4821").
    public var code: String
    public var timeline: [LadderEntry]
    /// How many jobs of each numbered kind (`remind`, `resume`, `ack`, `fallback`) were made, so
    /// each gets its own id.
    public var counts: [String: Int]
    /// How and by whom the standing acknowledgement came (the pure ladder keeps only the name).
    public var acknowledgedVia: AcknowledgementChannel?
    public var acknowledgedKey: String?
    /// The operator's account when the monitoring desk acknowledged (`via: desk`): the timeline
    /// names them, the texts and the walker hear only the desk.
    public var acknowledgedOperator: String?
    /// What ended the incident and, for the desk, why (`_incidents/{w}`): the all-clear says so.
    /// Absent in records stored before the desk, all closed by the walker.
    public var closedBy: IncidentState.Closer?
    public var closeReason: DeskCloseReason?

    /// The facts the one duress-aware rule judges.
    public var facts: IncidentFacts {
        IncidentFacts(reason: event.reason, level: ladder.level, duress: duress || event.duress)
    }

    mutating func note(_ kind: LadderEntry.Kind, _ text: String, at now: EpochSeconds) {
        timeline.append(LadderEntry(at: now, kind: kind, text: text))
        if timeline.count > LadderState.maxTimeline { timeline.removeFirst(timeline.count - LadderState.maxTimeline) }
    }

    /// The next id of a numbered kind: `{incident}#remind1`, `#remind2`, …
    mutating func nextID(_ kind: String) -> String {
        let count = (counts[kind] ?? 0) + 1
        counts[kind] = count
        return "\(ladder.incident)#\(kind)\(count)"
    }

    /// What `_ladder/{w}` says: digests only, numbers masked.
    public func state(members: [LadderMember]) -> LadderState {
        LadderState(
            incident: ladder.incident, walker: walker, state: ladder.isClosed ? .closed : .open, level: ladder.level,
            reason: event.reason, openedAt: ladder.openedAt, closedAt: ladder.closedAt,
            tier: ladder.reached.rawValue,
            acknowledgement: ladder.acknowledgement.map {
                LadderAcknowledgement(by: $0.by, via: acknowledgedVia ?? .page, at: $0.at)
            },
            recipients: members.map {
                LadderRecipient(
                    name: $0.name, tier: $0.tier.rawValue, channel: $0.channel,
                    display: $0.address.map(PhoneNumber.masked) ?? $0.key, page: PageToken.digest($0.token),
                    toldAt: $0.toldAt, receipt: $0.receipt)
            }, timeline: timeline)
    }
}
