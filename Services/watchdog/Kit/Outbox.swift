import Foundation
import SafeWalkCore

/// A message whose publication must survive a crash: written in the same transaction as the
/// watch that caused it, published at QoS 1, and only then marked sent.
public struct OutboxItem: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case escalation, prompt, status
        /// An action's answer on `{w}/action/result`.
        case answer
        /// An incident's state on `_incidents/{w}`.
        case incident
        /// A walk that ended as `arrived`, on `_arrivals/{w}`.
        case arrival
        /// The answer to the monitoring desk's close, on `_desk/result`.
        case deskResult
    }

    /// The escalation or prompt id; `status/{walker}` for statuses and
    /// `incident/{walker}/{incident id}` for incident states (a newer one replaces an unsent
    /// older one: the close of one incident never replaces anything about another).
    public var key: String
    public var kind: Kind
    public var walker: WalkerID
    public var topic: String
    public var payload: Data
    public var retain: Bool
    public var createdAt: EpochSeconds

    /// A status or an incident state: the last word on its retained topic, superseded by the next.
    var isRetainedState: Bool { kind == .status || kind == .incident }

    /// An answer that promises its request is on disk (an action's, the desk's): it is published
    /// only after a commit that succeeded, never by the failed-commit fallback.
    var waitsForCommit: Bool { kind == .answer || kind == .deskResult }
}

/// An ``OutboxItem`` as stored, with its sequence number.
public struct OutboxRow: Hashable, Sendable {
    public var seq: Int64
    public var item: OutboxItem
}

/// Turns a step's actions into outbox items; prompts get fresh ids here, escalations come with
/// theirs. Statuses, escalations and incident states, written at every deadline, use their
/// hand-written `jsonPayload()` (same bytes, ~10× faster than `JSONEncoder`), as are prompts;
/// answers use `SafeWalkJSON.encode`.
public struct OutboxComposer {
    public var prefix: String
    public var makeID: @Sendable () -> String

    public init(prefix: String, makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.prefix = prefix
        self.makeID = makeID
    }

    /// The outbox key of one incident's state: a newer state of the same incident replaces an
    /// unsent older one, and no other.
    static func incidentKey(_ walker: WalkerID, _ incident: String) -> String { "incident/\(walker)/\(incident)" }

    public func items(for walker: WalkerID, _ actions: [WatchAction], now: EpochSeconds) throws -> [OutboxItem] {
        try actions.map { action in
            switch action {
            case .publishStatus(let status):
                return OutboxItem(
                    key: "status/\(walker)", kind: .status, walker: walker,
                    topic: Topic.status(walker).name(prefix: prefix),
                    payload: try status.jsonPayload(), retain: true, createdAt: now)
            case .prompt(let at, let replyBy):
                let id = makeID()
                return OutboxItem(
                    key: id, kind: .prompt, walker: walker,
                    topic: Topic.prompt(walker).name(prefix: prefix),
                    payload: try CheckInPrompt(id: id, at: at, replyBy: replyBy).jsonPayload(),
                    retain: false, createdAt: now)
            case .answer(let result):
                // One row per answered id: a repeat answered before the first answer went out
                // replaces it rather than queueing a second copy.
                let key = result.id.map { "answer/\(walker)/\($0)" } ?? makeID()
                return OutboxItem(
                    key: key, kind: .answer, walker: walker,
                    topic: Topic.actionResult(walker).name(prefix: prefix),
                    payload: try SafeWalkJSON.encode(result), retain: false, createdAt: now)
            case .escalate(let draft):
                return OutboxItem(
                    key: draft.id, kind: .escalation, walker: walker,
                    topic: Topic.escalation(walker).name(prefix: prefix),
                    payload: try draft.event(walker: walker).jsonPayload(),
                    retain: false, createdAt: now)
            case .publishIncident(let state):
                return OutboxItem(
                    key: Self.incidentKey(walker, state.incident), kind: .incident, walker: walker,
                    topic: Topic.incident(walker).name(prefix: prefix),
                    payload: try state.jsonPayload(), retain: true, createdAt: now)
            case .publishArrival(let arrival):
                // Not retained: "home safe" is news of one moment, not a state to find later.
                return OutboxItem(
                    key: "arrival/\(makeID())", kind: .arrival, walker: walker,
                    topic: Topic.arrival(walker).name(prefix: prefix),
                    payload: try SafeWalkJSON.encode(arrival), retain: false, createdAt: now)
            case .answerDesk(let result):
                // One row per request and answer: a redelivered close answered `notOpen` before
                // the first answer (`ok`) went out must not replace it.
                let key = "desk/\(walker)/\(result.id)/\(result.error?.rawValue ?? "ok")"
                return OutboxItem(
                    key: key, kind: .deskResult, walker: walker, topic: Topic.deskResult.name(prefix: prefix),
                    payload: try SafeWalkJSON.encode(result), retain: false, createdAt: now)
            }
        }
    }
}
