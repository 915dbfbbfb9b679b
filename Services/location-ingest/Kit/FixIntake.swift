import Foundation
import SafeWalkCore

/// What one message on a fix topic turned out to be.
public enum IntakeOutcome: Hashable, Sendable {
    /// A validated fix for this walker.
    case fix(WalkerID, LocationFix)
    /// A well-formed OwnTracks message that is not a location (`lwt`, `transition`, ...).
    case ignored(WalkerID, type: String)
    /// Refused: a stable reason code, the kind of topic it came on, the walker if valid.
    case rejected(reason: String, kind: TopicKind, walker: WalkerID?)
}

/// Reads the walker from the topic and the fix from the payload. Pure: no IO, no clock.
public enum FixIntake {
    /// Reason code for a topic whose walker level is not a valid walker id.
    public static let invalidWalker = "invalid_walker_id"
    /// Reason code for a topic outside the contract (wildcards, wrong shape, reserved levels).
    public static let invalidTopic = "invalid_topic"

    public static func read(topic: String, payload: Data, prefix: String, now: EpochSeconds,
                            policy: FixPolicy) -> IntakeOutcome {
        let walker: WalkerID
        let kind: TopicKind
        switch Topic.parse(topic, prefix: prefix) {
        case .fix(let w)?:
            (walker, kind) = (w, .fix)
        case .owntracks(let user, _)?:
            (walker, kind) = (user, .owntracks)
        default:
            return topicRejection(topic, prefix: prefix)
        }
        do {
            switch try FixDecoder.decode(payload, now: now, policy: policy) {
            case .fix(let fix): return .fix(walker, fix)
            case .ignored(let type): return .ignored(walker, type: type)
            }
        } catch {
            return .rejected(reason: error.code, kind: kind, walker: walker)
        }
    }

    /// Says why a topic that reached us is unacceptable, without echoing it.
    private static func topicRejection(_ topic: String, prefix: String) -> IntakeOutcome {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let isOwnTracks = levels.first == "owntracks"
        let kind: TopicKind = isOwnTracks ? .owntracks : .fix
        let walkerIndex = isOwnTracks ? 1 : prefix.split(separator: "/").count
        if walkerIndex < levels.count, WalkerID(validating: String(levels[walkerIndex])) == nil,
           !topic.contains("+"), !topic.contains("#") {
            return .rejected(reason: invalidWalker, kind: kind, walker: nil)
        }
        return .rejected(reason: invalidTopic, kind: kind, walker: nil)
    }
}
