import Foundation
import SafeWalkCore

/// What one message on a fix topic turned out to be.
public enum IntakeOutcome: Hashable, Sendable {
    /// A validated fix for this walker.
    case fix(WalkerID, LocationFix)
    /// The OwnTracks app's Last Will, on an OwnTracks topic: the device is gone.
    case lastWill(WalkerID, connectedAt: EpochSeconds?)
    /// A well-formed OwnTracks message that is not a location (`transition`, `card`, ...), or a
    /// `lwt` on our own fix topic (our app says `offline` on `{w}/presence` instead).
    case ignored(WalkerID, type: String)
    /// An empty message on an OwnTracks topic: a retained message being cleared (an erasure
    /// clears the device's retained `owntracks/{w}/+`), not a malformed fix.
    case cleared(WalkerID)
    /// Refused: a stable reason code, the kind of topic it came on, the walker if valid.
    case rejected(reason: String, kind: Topic.Kind, walker: WalkerID?)
}

/// Reads the walker from the topic and the fix from the payload. Pure: no IO, no clock.
public enum FixIntake {
    /// Reason code for a topic whose walker level is not a valid walker id.
    public static let invalidWalker = "invalid_walker_id"
    /// Reason code for a topic outside the contract (wildcards, wrong shape, reserved levels).
    public static let invalidTopic = "invalid_topic"

    /// Who a topic is about: the walker and topic kind, or the rejection of the topic.
    public enum Route: Hashable, Sendable {
        case walker(WalkerID, Topic.Kind)
        case rejected(IntakeOutcome)
    }

    /// Reads one message: its topic, then (for a valid walker) its payload.
    public static func read(
        topic: String, payload: Data, prefix: String, now: EpochSeconds,
        policy: FixPolicy
    ) -> IntakeOutcome {
        read(route: route(topic, prefix: prefix), payload: payload, now: now, policy: policy)
    }

    /// Parses a topic (callers may cache the answer per topic: it depends on nothing else).
    public static func route(_ topic: String, prefix: String) -> Route {
        guard let parsed = Topic.parse(topic, prefix: prefix), parsed.kind == .fix || parsed.kind == .owntracks,
            let walker = parsed.walker
        else { return .rejected(topicRejection(topic, prefix: prefix)) }
        return .walker(walker, parsed.kind)
    }

    /// Reads a payload that arrived on an already parsed topic.
    public static func read(route: Route, payload: Data, now: EpochSeconds, policy: FixPolicy) -> IntakeOutcome {
        let walker: WalkerID
        let kind: Topic.Kind
        switch route {
        case .rejected(let outcome): return outcome
        case .walker(let w, let k): (walker, kind) = (w, k)
        }
        if kind == .owntracks && payload.isEmpty { return .cleared(walker) }
        do {
            switch try FixDecoder.decode(payload, now: now, policy: policy) {
            case .fix(let fix): return .fix(walker, fix)
            case .ignored(let type): return .ignored(walker, type: type)
            case .lastWill(let connectedAt):
                return kind == .owntracks ? .lastWill(walker, connectedAt: connectedAt) : .ignored(walker, type: "lwt")
            }
        } catch {
            return .rejected(reason: error.code, kind: kind, walker: walker)
        }
    }

    /// Says why a topic that reached us is unacceptable, without echoing it.
    private static func topicRejection(_ topic: String, prefix: String) -> IntakeOutcome {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let isOwnTracks = levels.first.map(String.init) == Topic.Kind.owntracks.path
        let kind: Topic.Kind = isOwnTracks ? .owntracks : .fix
        let walkerIndex = isOwnTracks ? 1 : prefix.split(separator: "/").count
        if walkerIndex < levels.count, WalkerID(validating: String(levels[walkerIndex])) == nil,
            !topic.contains("+"), !topic.contains("#")
        {
            return .rejected(reason: invalidWalker, kind: kind, walker: nil)
        }
        return .rejected(reason: invalidTopic, kind: kind, walker: nil)
    }
}
