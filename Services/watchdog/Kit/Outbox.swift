import Foundation
import SafeWalkCore

/// A message whose publication must survive a crash: written in the same transaction as the
/// watch that caused it, published at QoS 1, and only then marked sent.
public struct OutboxItem: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case escalation, prompt, status
        /// An action's answer on `{w}/action/result`.
        case answer
    }

    /// The escalation or prompt id; `status/{walker}` for statuses (a newer one replaces an
    /// unsent older one).
    public var key: String
    public var kind: Kind
    public var walker: WalkerID
    public var topic: String
    public var payload: Data
    public var retain: Bool
    public var createdAt: EpochSeconds
}

/// An ``OutboxItem`` as stored, with its sequence number.
public struct OutboxRow: Hashable, Sendable {
    public var seq: Int64
    public var item: OutboxItem
}

/// Turns a step's actions into outbox items with fresh ids. Statuses and escalations, written
/// at every deadline, use their hand-written `jsonPayload()` (same bytes, ~10× faster than
/// `JSONEncoder`); prompts use `SafeWalkJSON.encode`.
public struct OutboxComposer {
    public var prefix: String
    public var makeID: @Sendable () -> String

    public init(prefix: String, makeID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.prefix = prefix
        self.makeID = makeID
    }

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
                    payload: try SafeWalkJSON.encode(CheckInPrompt(id: id, at: at, replyBy: replyBy)),
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
                let id = makeID()
                return OutboxItem(
                    key: id, kind: .escalation, walker: walker,
                    topic: Topic.escalation(walker).name(prefix: prefix),
                    payload: try draft.event(id: id, walker: walker).jsonPayload(),
                    retain: false, createdAt: now)
            }
        }
    }
}
