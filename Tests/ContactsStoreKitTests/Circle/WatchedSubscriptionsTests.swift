import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

@testable import ContactsStoreKit

/// contacts-store subscribes to a walker's position and status only while someone may see them.
@Suite struct WatchedSubscriptionsTests {
    let alice = try! WalkerID("alice")
    let bob = try! WalkerID("bob")

    func position(_ walker: WalkerID, _ lat: Double) -> MQTTMessage {
        MQTTMessage(
            topic: Topic.position(walker).name(), string: #"{"lat":\#(lat),"lon":-97.7,"tst":1760000000}"#,
            retain: true)
    }

    @Test func onlyTheWatchedWalkersAreSubscribedAndTheirRetainedPositionComesAtOnce() async throws {
        let bus = InMemoryMessageBus()
        try await bus.publish(position(alice, 30.1))
        try await bus.publish(position(bob, 30.2))
        let interest = WatchedWalkers([alice])
        let delivered = Mutex<[String]>([])
        let watched = WatchedSubscriptions(bus: bus, prefix: "safewalk", logger: Logger(label: "test"))
        let running = Task {
            await watched.run(changes: interest.changes) { walker, message in
                #expect(message.topic.hasPrefix("safewalk/\(walker.rawValue)/"))
                delivered.withLock { $0.append(message.topic + " " + (message.string ?? "")) }
            }
        }
        let alicesFilters = ["safewalk/alice/position", "safewalk/alice/status"]
        let bobsFilters = ["safewalk/bob/position", "safewalk/bob/status"]
        try await eventually("alice subscribed") { bus.subscribedFilters == alicesFilters }
        try await eventually("alice's retained position") { delivered.withLock { $0.count } == 1 }
        #expect(delivered.withLock { $0 }.first?.hasPrefix("safewalk/alice/position") == true)

        // Bob's positions never reach the circle while no one may see him.
        try await bus.publish(position(bob, 30.3))
        interest.replace(with: [bob])
        try await eventually("bob subscribed instead") { bus.subscribedFilters == bobsFilters }
        try await eventually("bob's retained position") { delivered.withLock { $0.count } == 2 }
        #expect(delivered.withLock { $0 }.last?.contains("30.3") == true)

        // Alice is no longer watched: her next position is not delivered.
        try await bus.publish(position(alice, 30.4))
        try await bus.publish(position(bob, 30.5))
        try await eventually("bob's next position") { delivered.withLock { $0.count } == 3 }
        #expect(delivered.withLock { $0 }.last?.contains("30.5") == true)
        #expect(!delivered.withLock { $0 }.contains { $0.contains("30.4") })

        interest.replace(with: [])
        try await eventually("nothing subscribed") { bus.subscribedFilters.isEmpty }
        interest.finish()
        try await withTimeout(30, "the subscriptions to end") { await running.value }
    }

    /// The in-memory bus, refusing one filter the first time it is asked.
    final class RefusingOnce: MessageBus {
        let bus = InMemoryMessageBus()
        let refused: Mutex<String?>
        init(_ filter: String) { refused = Mutex(filter) }

        func publish(_ message: MQTTMessage) async throws { try await bus.publish(message) }
        func subscribe(_ filter: String, qos: QoS) async throws -> MQTTSubscription {
            let refuse = refused.withLock { refused in
                defer { if refused == filter { refused = nil } }
                return refused == filter
            }
            if refuse { throw MQTTError.subscriptionRefused(filter: filter) }
            return try await bus.subscribe(filter, qos: qos)
        }
        func unsubscribe(_ filter: String) async { await bus.unsubscribe(filter) }
        func discardUnclaimed(matching filter: String) {}
    }

    @Test func aWalkerHalfSubscribedIsUndoneAndSubscribedOnceAtTheNextChange() async throws {
        let refusing = RefusingOnce("safewalk/alice/status")
        let interest = WatchedWalkers([alice])
        let watched = WatchedSubscriptions(bus: refusing, prefix: "safewalk", logger: Logger(label: "test"))
        let running = Task { await watched.run(changes: interest.changes) { _, _ in } }
        // Alice's status was refused: her position, subscribed a moment before, is undone.
        try await eventually("alice's status refused") { refusing.refused.withLock { $0 == nil } }
        try await eventually("nothing of alice's left") { refusing.bus.subscribedFilters.isEmpty }
        interest.replace(with: [alice, bob])
        try await eventually("both walkers subscribed") {
            refusing.bus.subscribedFilters == [
                "safewalk/alice/position", "safewalk/alice/status", "safewalk/bob/position", "safewalk/bob/status",
            ]
        }
        interest.replace(with: [])
        try await eventually("nothing subscribed") { refusing.bus.subscribedFilters.isEmpty }
        interest.finish()
        try await withTimeout(30, "the subscriptions to end") { await running.value }
    }
}
