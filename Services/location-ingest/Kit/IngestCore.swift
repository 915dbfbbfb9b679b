import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// Holds every walker's track and turns batches of messages into plans. Decoding (the costly
/// part) runs outside the lock, in parallel for big batches; only the cheap per-walker
/// decisions are serialised, in arrival order.
public final class IngestCore: Sendable {
    private let prefix: String
    private let policy: FixPolicy
    private let rule: TrackRule
    private let tracks: Mutex<[WalkerID: WalkerTrack]>
    /// Batches at least this big are decoded in parallel chunks.
    static let parallelThreshold = 1_024

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

    /// Forgets `walker`'s track (an erasure): its next fix, if any, starts a new one.
    public func forget(_ walker: WalkerID) {
        _ = tracks.withLock { $0.removeValue(forKey: walker) }
    }

    /// Decodes and decides `messages` on the calling thread.
    public func plan(_ messages: [MQTTMessage], now: EpochSeconds) -> BatchPlan {
        decide(intake(messages[...], now: now), now: now)
    }

    /// Decodes big batches on every core, then decides in arrival order.
    public func planConcurrently(_ messages: [MQTTMessage], now: EpochSeconds) async -> BatchPlan {
        let cores = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        guard messages.count >= Self.parallelThreshold, cores > 1 else { return plan(messages, now: now) }
        let size = (messages.count + cores - 1) / cores
        let outcomes = await withTaskGroup(of: (Int, [IntakeOutcome]).self) { group in
            for (index, start) in stride(from: 0, to: messages.count, by: size).enumerated() {
                let chunk = messages[start..<min(start + size, messages.count)]
                group.addTask { (index, self.intake(chunk, now: now)) }
            }
            var parts: [(Int, [IntakeOutcome])] = []
            for await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
        return decide(outcomes, now: now)
    }

    /// Pure: topic and payload of each message. Topics repeat (one per device), so their
    /// parse is cached for the batch.
    func intake(_ messages: ArraySlice<MQTTMessage>, now: EpochSeconds) -> [IntakeOutcome] {
        var routes: [String: FixIntake.Route] = [:]
        return messages.map { message in
            let route: FixIntake.Route
            if let known = routes[message.topic] {
                route = known
            } else {
                route = FixIntake.route(message.topic, prefix: prefix)
                routes[message.topic] = route
            }
            return FixIntake.read(route: route, payload: message.payload, now: now, policy: policy)
        }
    }

    private func decide(_ outcomes: [IntakeOutcome], now: EpochSeconds) -> BatchPlan {
        var plan = BatchPlan()
        plan.history.reserveCapacity(outcomes.count)
        tracks.withLock { tracks in
            for outcome in outcomes {
                let walker: WalkerID
                let fix: LocationFix
                switch outcome {
                case .fix(let w, let f): (walker, fix) = (w, f)
                case .ignored(let w, let type):
                    plan.ignored.append((w, type))
                    continue
                case .rejected(let reason, let kind, let w):
                    plan.rejections.append((reason, kind, w))
                    continue
                }
                let (track, disposition) = rule.apply(fix, to: tracks[walker])
                switch disposition {
                case .duplicate:
                    plan.duplicates += 1
                    continue
                case .outOfOrder:
                    plan.outOfOrder += 1
                case .accepted(let update):
                    plan.accepted += 1
                    tracks[walker] = track
                    plan.tracks[walker] = track
                    PositionPublisher.merge(&plan.positions, walker, update)
                }
                plan.history.append(HistoryRow(walker: walker, fix: fix, receivedAt: now))
            }
        }
        return plan
    }
}
