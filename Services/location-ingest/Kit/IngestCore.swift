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
    private let state: Mutex<State>
    /// Batches at least this big are decoded in parallel chunks.
    static let parallelThreshold = 1_024

    /// Everything decisions depend on, per walker.
    struct State {
        var tracks: [WalkerID: WalkerTrack]
        var wills: [WalkerID: OwnTracksWill]
    }

    public init(
        prefix: String, settings: IngestSettings, tracks: [WalkerID: WalkerTrack] = [:],
        wills: [WalkerID: OwnTracksWill] = [:]
    ) {
        self.prefix = prefix
        self.policy = settings.policy
        self.rule = TrackRule(movement: settings.movement)
        self.state = Mutex(State(tracks: tracks, wills: wills))
    }

    /// The current track of `walker`.
    public func track(of walker: WalkerID) -> WalkerTrack? {
        state.withLock { $0.tracks[walker] }
    }

    /// What is known of `walker`'s OwnTracks Last Will.
    public func will(of walker: WalkerID) -> OwnTracksWill? {
        state.withLock { $0.wills[walker] }
    }

    /// What is known now of each of `walkers`' wills (nil: erased meanwhile).
    public func wills(of walkers: Set<WalkerID>) -> [WalkerID: OwnTracksWill?] {
        state.withLock { state in Dictionary(uniqueKeysWithValues: walkers.map { ($0, state.wills[$0]) }) }
    }

    /// Forgets `walker`'s track and will (an erasure): its next fix, if any, starts a new track.
    public func forget(_ walker: WalkerID) {
        state.withLock {
            $0.tracks[walker] = nil
            $0.wills[walker] = nil
        }
    }

    /// Decodes and decides `messages` on the calling thread.
    public func plan(_ messages: [MQTTMessage], now: EpochSeconds) -> BatchPlan {
        decide(intake(messages[...], now: now), now: now)
    }

    /// Read once: Foundation reads the cgroup's CPU quota from /sys on every call, which at walking
    /// pace (a batch per fix) was 6 % of location-ingest's CPU (issue 22's profile).
    static let cores = max(ProcessInfo.processInfo.activeProcessorCount, 1)

    /// Decodes big batches on every core, then decides in arrival order.
    public func planConcurrently(_ messages: [MQTTMessage], now: EpochSeconds) async -> BatchPlan {
        let cores = Self.cores
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
        state.withLock { state in
            for outcome in outcomes {
                let walker: WalkerID
                let fix: LocationFix
                switch outcome {
                case .fix(let w, let f): (walker, fix) = (w, f)
                case .lastWill(let w, let connectedAt):
                    let (will, presence) = OwnTracksPresence.lastWill(connectedAt: connectedAt, known: state.wills[w])
                    plan.record(will, presence, for: w, in: &state)
                    continue
                case .ignored(let w, let type):
                    plan.ignored.append((w, type))
                    continue
                case .cleared:
                    plan.cleared += 1
                    continue
                case .rejected(let reason, let kind, let w):
                    plan.rejections.append((reason, kind, w))
                    continue
                }
                if let (will, presence) = OwnTracksPresence.fix(known: state.wills[walker]) {
                    plan.record(will, presence, for: walker, in: &state)
                }
                let (track, disposition) = rule.apply(fix, to: state.tracks[walker])
                switch disposition {
                case .duplicate:
                    plan.duplicates += 1
                    continue
                case .outOfOrder:
                    plan.outOfOrder += 1
                case .accepted(let update):
                    plan.accepted += 1
                    state.tracks[walker] = track
                    plan.tracks[walker] = track
                    PositionPublisher.merge(&plan.positions, walker, update)
                }
                plan.history.append(HistoryRow(walker: walker, fix: fix, receivedAt: now))
            }
        }
        return plan
    }
}

extension BatchPlan {
    /// Keeps a walker's new will state, and the presence to announce if it changed.
    fileprivate mutating func record(
        _ will: OwnTracksWill, _ presence: Presence?, for walker: WalkerID, in state: inout IngestCore.State
    ) {
        if will != state.wills[walker] {
            state.wills[walker] = will
            willsChanged.insert(walker)
        }
        if presence != nil { presenceChanged.insert(walker) }
    }
}
