import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// One fix to keep in history.
public struct HistoryRow: Hashable, Sendable {
    public var walker: WalkerID
    public var fix: LocationFix
    public var receivedAt: EpochSeconds

    public init(walker: WalkerID, fix: LocationFix, receivedAt: EpochSeconds) {
        self.walker = walker
        self.fix = fix
        self.receivedAt = receivedAt
    }
}

/// Everything one batch of messages asks the IO shell to do.
public struct BatchPlan: Sendable {
    /// Valid fixes to store, accepted and out-of-order alike.
    public var history: [HistoryRow] = []
    /// The final track of every walker this batch changed.
    public var tracks: [WalkerID: WalkerTrack] = [:]
    /// The newest position per walker. Only the newest is published: the topic is retained,
    /// so intermediate positions would be overwritten at once. `moved` is true when any fix in
    /// the batch proved movement, so coalescing never hides movement.
    public var positions: [WalkerID: PositionUpdate] = [:]
    public var rejections: [(reason: String, kind: TopicKind, walker: WalkerID?)] = []
    public var ignored: [(walker: WalkerID, type: String)] = []
    public var accepted = 0
    public var outOfOrder = 0
    public var duplicates = 0
}

/// Holds every walker's track and turns batches of messages into plans. Decoding happens
/// outside the lock; only the (cheap) track decisions are serialised.
public final class IngestCore: Sendable {
    private let prefix: String
    private let policy: FixPolicy
    private let rule: TrackRule
    private let tracks: Mutex<[WalkerID: WalkerTrack]>

    public init(prefix: String, settings: IngestSettings, tracks: [WalkerID: WalkerTrack] = [:]) {
        self.prefix = prefix
        self.policy = settings.policy
        self.rule = TrackRule(movement: settings.movement)
        self.tracks = Mutex(tracks)
    }

    /// The current track of `walker`.
    public func track(of walker: WalkerID) -> WalkerTrack? {
        tracks.withLock { $0[walker] }
    }

    public func plan(_ messages: [MQTTMessage], now: EpochSeconds) -> BatchPlan {
        var plan = BatchPlan()
        var fixes: [(WalkerID, LocationFix)] = []
        fixes.reserveCapacity(messages.count)
        for message in messages {
            switch FixIntake.read(topic: message.topic, payload: message.payload, prefix: prefix,
                                  now: now, policy: policy) {
            case .fix(let walker, let fix): fixes.append((walker, fix))
            case .ignored(let walker, let type): plan.ignored.append((walker, type))
            case .rejected(let reason, let kind, let walker): plan.rejections.append((reason, kind, walker))
            }
        }
        tracks.withLock { tracks in
            for (walker, fix) in fixes {
                let (track, disposition) = rule.apply(fix, to: tracks[walker])
                switch disposition {
                case .duplicate:
                    plan.duplicates += 1
                    continue
                case .outOfOrder:
                    plan.outOfOrder += 1
                case .accepted(var update):
                    plan.accepted += 1
                    tracks[walker] = track
                    plan.tracks[walker] = track
                    if plan.positions[walker]?.moved == true { update.moved = true }
                    plan.positions[walker] = update
                }
                plan.history.append(HistoryRow(walker: walker, fix: fix, receivedAt: now))
            }
        }
        return plan
    }
}
