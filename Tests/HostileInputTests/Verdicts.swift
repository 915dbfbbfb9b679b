import CompanionChatKit
import ContactsStoreKit
import Foundation
import LocationIngestKit
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import WatchdogKit

/// What one service makes of one message, asked of the service's own pure intake (the same
/// function its executable runs), so nothing here is guessed.
enum Verdict: Hashable, Sendable, CustomStringConvertible {
    /// Counted in `safewalk_rejections_total{reason=…}`.
    case rejected(String)
    /// Acted upon.
    case accepted
    /// Deliberately neither acted upon nor counted (non-location OwnTracks, empty presence).
    case ignored

    var description: String {
        switch self {
        case .rejected(let reason): "rejected(\(reason))"
        case .accepted: "accepted"
        case .ignored: "ignored"
        }
    }
}

enum Verdicts {
    static let prefix = Topic.defaultPrefix

    /// Which services subscribe to each kind of input topic (their `subscribe` functions).
    static func readers(of kind: InputKind) -> [ServiceName] {
        switch kind {
        case .fix, .owntracks: [.locationIngest]
        case .presence, .action, .position: [.watchdog]
        case .reply: [.watchdog, .companionChat]
        case .prompt: [.companionChat]
        case .escalation, .contacts: [.notifier]
        case .contactsAdd, .contactsRemove: [.contactsStore]
        }
    }

    /// `service`'s verdict on a message, with the defaults its executable runs with.
    static func verdict(_ service: ServiceName, topic: String, payload: Data, now: EpochSeconds) -> Verdict {
        let message = MQTTMessage(topic: topic, payload: payload)
        switch service {
        case .locationIngest:
            switch FixIntake.read(topic: topic, payload: payload, prefix: prefix, now: now, policy: FixPolicy()) {
            case .fix, .lastWill: return .accepted
            case .ignored, .cleared: return .ignored
            case .rejected(let reason, _, _): return .rejected(reason)
            }
        case .watchdog:
            do {
                switch try InputDecoder(prefix: prefix).decode(message, now: now) {
                case .event: return .accepted
                case .ignored: return .ignored
                }
            } catch {
                return .rejected(error.code)
            }
        case .companionChat:
            switch ChatIntake.decode(message, prefix: prefix, limits: ChatIntake.Limits()) {
            case .success: return .accepted
            case .failure(let rejected): return .rejected(rejected.reason)
            }
        case .notifier:
            switch NotifierIntake.classify(message, prefix: prefix) {
            case .success: return .accepted
            case .failure(let refusal): return .rejected(refusal.code)
            }
        case .contactsStore:
            switch ContactIntake.read(topic: topic, payload: payload, prefix: prefix) {
            case .command: return .accepted
            case .unreadable(_, _, let error): return .rejected(error.code)
            case .invalidTopic: return .rejected("invalid_topic")
            }
        default:
            // `readers(of:)` names only the five services above.
            preconditionFailure("\(service) reads no input topic")
        }
    }

    /// Every reader's verdict on `hostile`.
    static func verdicts(on hostile: HostileCase, now: EpochSeconds) -> [ServiceName: Verdict] {
        Dictionary(
            uniqueKeysWithValues: readers(of: hostile.kind).map {
                ($0, verdict($0, topic: hostile.topic, payload: hostile.payload, now: now))
            })
    }
}
