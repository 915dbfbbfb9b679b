import Foundation
import SafeWalkMQTT
import Synchronization

/// A bus that can remove a filter from the broker's session for good. `MQTTClient` can; a
/// subscription ended locally stays in a persistent session (docs/ARCHITECTURE.md, "Ending a
/// subscription does not unsubscribe at the broker").
public protocol SessionFilters: Sendable {
    func unsubscribe(_ filter: String) async
}

extension MQTTClient: SessionFilters {}

/// Finds and clears retained messages: subscribes briefly to a filter, collects the topics of
/// the retained messages the broker hands over until nothing arrives for `quiet`, removes the
/// filter again, and publishes an empty retained message to each (MQTT's way to delete one).
public struct RetainedSweeper: Sendable {
    let bus: any MessageBus
    let quiet: Duration
    /// Never waits longer than this many quiet periods, however much keeps arriving.
    let maxRounds: Int

    public init(bus: any MessageBus, quiet: Duration = .milliseconds(300), maxRounds: Int = 20) {
        self.bus = bus
        self.quiet = quiet
        self.maxRounds = maxRounds
    }

    /// The topics matching `filter` that hold a retained message now, sorted.
    public func retainedTopics(matching filter: String) async throws -> [String] {
        let subscription = try await bus.subscribe(filter, qos: .atLeastOnce)
        let seen = Arrivals()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in subscription { seen.record(message) }
            }
            group.addTask { [quiet, maxRounds] in
                var counted = 0
                for _ in 0..<maxRounds {
                    try? await Task.sleep(for: quiet)
                    let now = seen.count
                    if now == counted { break }
                    counted = now
                }
            }
            await group.next()
            group.cancelAll()
        }
        if let sessions = bus as? any SessionFilters {
            await sessions.unsubscribe(filter)
        } else {
            subscription.cancel()
        }
        return seen.retainedTopics
    }

    /// Deletes the retained message of each topic (QoS 1: returns once the broker has them all).
    public func clear(_ topics: [String]) async throws {
        for topic in topics {
            try await bus.publish(MQTTMessage(topic: topic, payload: Data(), qos: .atLeastOnce, retain: true))
        }
    }
}

/// What a sweep's subscription has delivered so far (written by its reader, read by its timer).
private final class Arrivals: Sendable {
    private let state = Mutex<(count: Int, retained: Set<String>)>((0, []))

    func record(_ message: MQTTMessage) {
        state.withLock { state in
            state.count += 1
            if message.retain { state.retained.insert(message.topic) }
        }
    }

    var count: Int { state.withLock { $0.count } }
    var retainedTopics: [String] { state.withLock { $0.retained }.sorted() }
}
