import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// The timed part: escalations to inboxes and positions to live views, each message also sent
/// through the broker alone to one subscriber per viewer (the baseline), by the same publisher.
final class CircleLoad: Sendable {
    struct PositionKey: Hashable, Sendable {
        var walker: Int
        var millis: Int
    }

    let run: CircleRun
    /// Incident id → the SOS contacts' inboxes.
    let alerts = Mutex(FanOutTracker<String, Int>())
    /// Incidents opened only to have `--incidents` open while positions are timed.
    let openings = Mutex(FanOutTracker<String, Int>())
    /// (walker, fix time) → the viewers' shared views.
    let views = Mutex(FanOutTracker<PositionKey, Int>())
    /// Baseline topic → the baseline subscribers, for escalations and for positions.
    let escalationBaseline = Mutex(FanOutTracker<String, Int>())
    let positionBaseline = Mutex(FanOutTracker<String, Int>())
    let listeners = Mutex<[Task<Void, Never>]>([])

    init(run: CircleRun) { self.run = run }

    /// Subscribes the phones' connection to every inbox and shared view, and each baseline
    /// subscriber to the baseline's topics.
    func listen() async throws {
        let inboxes = try await run.observer.subscribe("safewalk/+/inbox", qos: .atLeastOnce)
        let shared = try await run.observer.subscribe("safewalk/+/shared/+", qos: .atLeastOnce)
        var tasks = [
            Task { for await message in inboxes { self.inbox(message, at: .now) } },
            Task { for await message in shared { self.sharedView(message, at: .now) } },
        ]
        for (index, client) in run.fanout.enumerated() {
            let baseline = try await client.subscribe("bench/fanout/#", qos: .atLeastOnce)
            tasks.append(
                Task {
                    for await message in baseline {
                        let arrived = ContinuousClock.now
                        if message.topic.hasPrefix("bench/fanout/e/") {
                            escalationBaseline.withLock { _ = $0.arrived(message.topic, at: index, at: arrived) }
                        } else {
                            positionBaseline.withLock { _ = $0.arrived(message.topic, at: index, at: arrived) }
                        }
                    }
                })
        }
        listeners.withLock { $0 = tasks }
    }

    func stop() { listeners.withLock { $0.forEach { $0.cancel() } } }

    private func inbox(_ message: MQTTMessage, at arrived: ContinuousClock.Instant) {
        let levels = message.topic.split(separator: "/")
        guard levels.count == 3, let viewer = CirclePlan.index(of: levels[1]),
            let event = try? SafeWalkJSON.decode(InboxEvent.self, from: message.payload), event.type == .alert,
            let incident = event.incident
        else { return }
        if incident.hasPrefix("open-") {
            openings.withLock { _ = $0.arrived(incident, at: viewer, at: arrived) }
        } else {
            alerts.withLock { _ = $0.arrived(incident, at: viewer, at: arrived) }
        }
    }

    private func sharedView(_ message: MQTTMessage, at arrived: ContinuousClock.Instant) {
        let levels = message.topic.split(separator: "/")
        // Views published when an incident opens carry no position yet; clears are empty.
        guard levels.count == 4, let viewer = CirclePlan.index(of: levels[1]), !message.payload.isEmpty,
            let view = try? SafeWalkJSON.decode(SharedView.self, from: message.payload),
            let walker = CirclePlan.index(of: Substring(view.user.rawValue)), let position = view.position
        else { return }
        let key = PositionKey(walker: walker, millis: Int((position.tst * 1000).rounded()))
        views.withLock { _ = $0.arrived(key, at: viewer, at: arrived) }
    }

    static func incident(_ id: String, walker: Int, state: IncidentState.Phase = .open) throws -> Data {
        let now = Date().timeIntervalSince1970
        return try SafeWalkJSON.encode(
            IncidentState(
                incident: id, walker: CirclePlan.walker(walker), state: state, reason: .needHelp, level: .red,
                duress: false, openedAt: now, closedAt: state == .closed ? now : nil,
                closedBy: state == .closed ? .imSafe : nil))
    }

    static func position(millis: Int) throws -> Data {
        let tst = Double(millis) / 1000
        return try SafeWalkJSON.encode(
            PositionUpdate(
                fix: LocationFix(lat: 30.2849, lon: -97.7341, tst: tst, acc: 8), moved: true, lastMovedAt: tst))
    }

    static func nowMillis() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded()) }

    var everyBaselineSubscriber: Set<Int> { Set(run.fanout.indices) }
}
