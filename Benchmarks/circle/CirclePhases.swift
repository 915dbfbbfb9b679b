import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

extension CircleLoad {
    /// `--escalations` incidents opened at `--escalation-rate` (as the watchdog publishes them),
    /// each followed by the same bytes on a baseline topic the broker alone fans out.
    func escalate() async throws {
        let plan = run.plan
        let contacts = everyBaselineSubscriber
        _ = try await pace(rate: plan.escalationRate, count: plan.escalations) { [self] index in
            let id = "inc-\(index)"
            let payload = try Self.incident(id, walker: index)
            alerts.withLock { $0.sent(id, to: plan.viewers(of: index), at: .now) }
            try await run.publisher.publish(
                Topic.incident(CirclePlan.walker(index)).name(), payload: payload, retain: true)
            let baseline = "bench/fanout/e/\(index)"
            escalationBaseline.withLock { $0.sent(baseline, to: contacts, at: .now) }
            try await run.publisher.publish(baseline, payload: payload)
        }
        await drain {
            alerts.withLock { $0.missing == 0 } && escalationBaseline.withLock { $0.missing == 0 }
        }
    }

    /// Makes exactly walkers `0..<incidents` the ones with an open incident.
    func openIncidents() async throws {
        let plan = run.plan
        for index in plan.escalations..<max(plan.escalations, plan.incidents) {
            let id = "open-\(index)"
            openings.withLock { $0.sent(id, to: plan.viewers(of: index), at: .now) }
            try await run.publisher.publish(
                Topic.incident(CirclePlan.walker(index)).name(), payload: try Self.incident(id, walker: index),
                retain: true)
        }
        for index in plan.incidents..<max(plan.escalations, plan.incidents) {
            try await run.publisher.publish(
                Topic.incident(CirclePlan.walker(index)).name(),
                payload: try Self.incident("inc-\(index)", walker: index, state: .closed), retain: true)
        }
        await drain { openings.withLock { $0.missing == 0 } }
        try await Task.sleep(for: .seconds(2))  // closes, which nobody times, settle
    }

    /// Positions of the walkers nobody may see (`incidents..<users`), one each per `--interval`,
    /// for `seconds`; returns how many were published.
    func crowd(seconds: Double) async throws -> Int {
        let plan = run.plan
        let walkers = plan.users - plan.incidents
        return try await pace(rate: Double(walkers) / plan.interval, seconds: seconds, tick: .milliseconds(10)) {
            [self] step in
            let walker = plan.incidents + step % walkers
            try await run.crowd.publish(
                Topic.position(CirclePlan.walker(walker)).name(), payload: try Self.position(millis: Self.nowMillis()),
                retain: true)
        }
    }

    /// Positions of the walkers with an open incident, one each per `--interval`, timed to every
    /// viewer, each followed by the same bytes on a baseline topic; returns how many.
    func watched(seconds: Double) async throws -> Int {
        let plan = run.plan
        let subscribers = everyBaselineSubscriber
        return try await pace(rate: Double(plan.incidents) / plan.interval, seconds: seconds) { [self] step in
            let walker = step % plan.incidents
            let millis = Self.nowMillis()
            let payload = try Self.position(millis: millis)
            views.withLock {
                $0.sent(PositionKey(walker: walker, millis: millis), to: plan.viewers(of: walker), at: .now)
            }
            try await run.publisher.publish(
                Topic.position(CirclePlan.walker(walker)).name(), payload: payload, retain: true)
            let baseline = "bench/fanout/p/\(step)"
            positionBaseline.withLock { $0.sent(baseline, to: subscribers, at: .now) }
            try await run.publisher.publish(baseline, payload: payload)
        }
    }

    /// Waits until every tracked message reached everyone, or 60 s (what is still missing then is
    /// reported as incomplete).
    func drain(until done: () -> Bool) async {
        try? await eventually("the last copies", within: 60) { done() }
    }

    func drainViews() async {
        await drain { views.withLock { $0.missing == 0 } && positionBaseline.withLock { $0.missing == 0 } }
    }
}

/// Calls `send(0)`, `send(1)`, … at `rate` per second, evenly spaced, until `count` calls or
/// `seconds` have passed; the calls due at one wake-up run concurrently, so a slow
/// acknowledgement delays no later message. `tick` is the shortest sleep (a fast stream is sent
/// in batches instead of waking for each message). Returns how many were made.
func pace(
    rate: Double, count: Int = .max, seconds: Double = .infinity, tick: Duration = .zero,
    _ send: @escaping @Sendable (Int) async throws -> Void
) async throws -> Int {
    let start = ContinuousClock.now
    var sent = 0
    while sent < count {
        let elapsed = (ContinuousClock.now - start).seconds
        guard elapsed < seconds else { break }
        let due = min(count, Int(elapsed * rate) + 1)
        if due > sent {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in sent..<due { group.addTask { try await send(index) } }
                try await group.waitForAll()
            }
            sent = due
        }
        let next = start + .seconds(Double(sent) / rate)
        try await Task.sleep(until: max(next, ContinuousClock.now + tick), tolerance: .milliseconds(1))
    }
    return sent
}
