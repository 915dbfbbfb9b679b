import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport

/// The set-up as it happens in production: web announces every account (`_members/{w}`), then the
/// users follow, accept and mark SOS contacts with real circle commands, each awaited.
struct CircleSetup {
    let run: CircleRun

    struct Phase {
        var name: String
        var count: Int
        var seconds: Double
        var refused: [String: Int]
        var rate: Double { Double(count) / seconds }
    }

    /// Publishes every `Member` (retained, QoS 1, as web) and waits until contacts-store has
    /// given each new member its empty circle: then it knows them all.
    func announceMembers() async throws -> Phase {
        let plan = run.plan
        let watcher = try await run.broker.client("members-watcher")
        let circles = try await watcher.subscribe("safewalk/+/circle", qos: .atLeastOnce)
        let seen = LockedBox<Set<String>>([])
        let counter = Task {
            for await message in circles {
                let done = seen.value.withLock { seen in
                    seen.insert(message.topic)
                    return seen.count == plan.users
                }
                if done { return }
            }
        }
        let start = ContinuousClock.now
        let since = Date().timeIntervalSince1970.rounded(.down)
        try await bounded(plan.users, window: plan.window) { index in
            let walker = CirclePlan.walker(index)
            try await run.publisher.publish(
                Topic.member(walker).name(), payload: try SafeWalkJSON.encode(Member(user: walker, since: since)),
                retain: true)
        }
        try await withTimeout(600, "contacts-store to know \(plan.users) members") { await counter.value }
        let seconds = (ContinuousClock.now - start).seconds
        await watcher.shutdown()
        return Phase(name: "members announced", count: plan.users, seconds: seconds, refused: [:])
    }

    /// Every follow, then every accept, then every SOS mark, at most `window` awaiting answers.
    func buildCircles() async throws -> [Phase] {
        let plan = run.plan
        let client = try await run.broker.client("phones")
        let answers = Answers()
        let results = try await client.subscribe("safewalk/+/circle/result", qos: .atLeastOnce)
        let listener = Task {
            for await message in results {
                guard let result = try? SafeWalkJSON.decode(CircleResult.self, from: message.payload),
                    let id = result.id
                else { continue }
                answers.arrived(id, result)
            }
        }
        defer { listener.cancel() }
        var phases: [Phase] = []
        for op in [CircleCommand.Operation.follow, .accept, .sos] {
            // The user follows and marks; the contact accepts.
            let byContact = op == .accept
            let refused = LockedBox<[String: Int]>([:])
            let start = ContinuousClock.now
            try await withTimeout(3600, "\(op.rawValue) commands answered") {
                try await bounded(plan.users * plan.followers, window: plan.window) { index in
                    let user = index / plan.followers
                    let contact = plan.sosContacts(of: user)[index % plan.followers]
                    let (sender, other) = byContact ? (contact, user) : (user, contact)
                    let id = "\(op.rawValue)-\(index)"
                    let command = CircleCommand(id: id, op: op, user: CirclePlan.walker(other).rawValue)
                    try await run.publisher.publish(
                        Topic.circleCommand(CirclePlan.walker(sender)).name(),
                        payload: try SafeWalkJSON.encode(command))
                    let result = await answers.wait(for: id)
                    if !result.ok {
                        refused.value.withLock { $0[result.error?.code.rawValue ?? "?", default: 0] += 1 }
                    }
                }
            }
            phases.append(
                Phase(
                    name: op.rawValue, count: plan.users * plan.followers,
                    seconds: (ContinuousClock.now - start).seconds,
                    refused: refused.value.withLock { $0 }))
        }
        await client.shutdown()
        return phases
    }
}

/// Runs `body(0..<count)` with at most `window` at once.
func bounded(_ count: Int, window: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<count {
            if index >= window { try await group.next() }
            group.addTask { try await body(index) }
        }
        try await group.waitForAll()
    }
}

/// Answers by command id, whichever comes first: the answer or the wait for it.
final class Answers: Sendable {
    private enum Slot {
        case waiting(CheckedContinuation<CircleResult, Never>)
        case arrived(CircleResult)
    }
    private let slots = Mutex<[String: Slot]>([:])

    func arrived(_ id: String, _ result: CircleResult) {
        let waiter: CheckedContinuation<CircleResult, Never>? = slots.withLock { slots in
            if case .waiting(let waiter) = slots[id] {
                slots[id] = nil
                return waiter
            }
            slots[id] = .arrived(result)
            return nil
        }
        waiter?.resume(returning: result)
    }

    func wait(for id: String) async -> CircleResult {
        await withCheckedContinuation { continuation in
            let early: CircleResult? = slots.withLock { slots in
                if case .arrived(let result) = slots[id] {
                    slots[id] = nil
                    return result
                }
                slots[id] = .waiting(continuation)
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }
}

/// A `Mutex` behind a reference, for state that escaping closures share (a `Mutex` itself
/// cannot be captured: it is not copyable).
final class LockedBox<Value: Sendable>: Sendable {
    let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }
}
