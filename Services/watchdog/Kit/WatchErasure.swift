import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// The watchdog's part of deleting an account (docs/CONTRACT.md, "Accounts"), as a pure rule.
public enum WatchErasure {
    /// Why `watch` may not be erased, or nil when it may (or there is none). An incident the
    /// device sees, a duress incident it does not, or an armed hold switch (a panic waiting to
    /// fire) is an open incident: erasing it would silently drop a walker who may need help.
    public static func refusal(_ watch: Watch?) -> EraseReport.Failure? {
        guard let watch else { return nil }
        if watch.incident != nil || watch.duress != nil || watch.hold != nil { return .openIncident }
        return nil
    }

    /// The empty retained messages that clear what the watchdog published about `walker` for
    /// good: `{w}/status`, and `_incidents/{w}` (the watchdog owns it, so it clears it, not
    /// broker-admin). Their keys differ from every state's, so nothing queued replaces them.
    public static func clears(_ walker: WalkerID, prefix: String, now: EpochSeconds) -> [OutboxItem] {
        [
            OutboxItem(
                key: "status/\(walker)", kind: .status, walker: walker,
                topic: Topic.status(walker).name(prefix: prefix),
                payload: Data(), retain: true, createdAt: now),
            OutboxItem(
                key: "incident/\(walker)", kind: .incident, walker: walker,
                topic: Topic.incident(walker).name(prefix: prefix), payload: Data(), retain: true, createdAt: now),
        ]
    }
}

/// What the event loop takes from its inbox: a broker message, or an erasure, so an erasure is
/// serialised with the messages for the same walker and never runs in the middle of one.
enum WatchInput: Sendable {
    case message(MQTTMessage)
    case erase(WalkerID, CheckedContinuation<EraseReport.Failure?, Never>)

    /// Consecutive messages grouped, each erasure on its own, in arrival order; an empty batch
    /// (a timer came due) is one empty group, so due deadlines still fire.
    static func segments(_ inputs: [WatchInput]) -> [Segment] {
        var segments: [Segment] = []
        var messages: [MQTTMessage] = []
        for input in inputs {
            switch input {
            case .message(let message): messages.append(message)
            case .erase(let walker, let reply):
                if !messages.isEmpty { segments.append(.messages(messages)) }
                messages = []
                segments.append(.erase(walker, reply))
            }
        }
        if !messages.isEmpty || segments.isEmpty { segments.append(.messages(messages)) }
        return segments
    }

    enum Segment {
        case messages([MQTTMessage])
        case erase(WalkerID, CheckedContinuation<EraseReport.Failure?, Never>)
    }
}
