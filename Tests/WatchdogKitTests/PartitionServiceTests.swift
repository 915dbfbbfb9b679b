import Foundation
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import TestSupport
import Testing
import WatchdogKit

/// Two real ``WatchdogService``s as partitions 0 and 1 of 2 on one in-memory bus, which delivers
/// by MQTT's matching but maps nothing: the tests publish each input in the form the engine routes
/// it to (`safewalk/{w}/action/{K}`), as `safewalk nats-mappings` makes NATS do
/// (`scripts/cluster-stack.sh` checks the real engine).
@Suite(.holdsResources) struct PartitionServiceTests {
    /// The first walkers `w0, w1, ...` the engine routes to partition 0 and to partition 1 of 2.
    static func walkers(in partition: Int, _ count: Int) -> [WalkerID] {
        (0..<100).compactMap { WalkerID(validating: "w\($0)") }
            .filter { WalkerPartition.of($0, count: 2) == partition }.prefix(count).map { $0 }
    }

    static func routed(_ topic: Topic) -> String {
        "\(topic.name())/\(WalkerPartition.of(topic.walker!, count: 2))"
    }

    func pair(_ bus: InMemoryMessageBus) async throws -> [ServiceHarness] {
        var pair: [ServiceHarness] = []
        for index in 0..<2 {
            pair.append(try await ServiceHarness(bus: bus, partition: WalkerPartition(index: index, count: 2)))
        }
        return pair
    }

    @Test func eachInstanceWatchesOnlyTheWalkersRoutedToIt() async throws {
        let bus = InMemoryMessageBus()
        let instances = try await pair(bus)
        let statuses = try await bus.subscribe("safewalk/+/status", qos: .atLeastOnce)
        let mine = [Self.walkers(in: 0, 2), Self.walkers(in: 1, 2)]
        for walker in mine.joined() {
            try await bus.publish(
                Self.routed(.action(walker)), payload: try SafeWalkJSON.encode(Action(id: "s-\(walker)", kind: .start)))
        }
        // An unrouted action (one watchdog's form) reaches neither instance of two.
        let stray = try #require(WalkerID(validating: "stray"))
        try await bus.publish(
            Topic.action(stray).name(), payload: try SafeWalkJSON.encode(Action(id: "s-stray", kind: .start)))
        #expect(Set(try await statuses.first(4).compactMap { Topic.parse($0.topic)?.walker }) == Set(mine.joined()))
        for (index, instance) in instances.enumerated() {
            try await eventually("partition \(index) stored its walkers") {
                Set(try instance.store.loadWatches().map(\.walker)) == Set(mine[index])
            }
        }
        // Each partition's deadlines fire in its own instance: one escalation per walker.
        let escalations = try await bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        for instance in instances { instance.clock.advance(to: 1_120) }
        let escalated = try await escalations.first(4).compactMap { Topic.parse($0.topic)?.walker }
        #expect(escalated.count == 4 && Set(escalated) == Set(mine.joined()))
        for instance in instances { await instance.cleanUp() }
    }

    /// The nodes' mapping and the watchdogs disagree on N (or a device published to a partition
    /// itself): the input reached only this instance, so it is handled here, not dropped.
    @Test func anInputRoutedToAnotherPartitionIsStillHandled() async throws {
        let bus = InMemoryMessageBus()
        let instances = try await pair(bus)
        let statuses = try await bus.subscribe("safewalk/+/status", qos: .atLeastOnce)
        let walker = Self.walkers(in: 1, 1)[0]
        try await bus.publish(
            "\(Topic.action(walker).name())/0", payload: try SafeWalkJSON.encode(Action(id: "s-1", kind: .start)))
        #expect(try await statuses.first(1).compactMap { Topic.parse($0.topic)?.walker } == [walker])
        try await eventually("partition 0 stored it") { try instances[0].store.loadWatches().map(\.walker) == [walker] }
        #expect(try instances[1].store.loadWatches().isEmpty)
        for instance in instances { await instance.cleanUp() }
    }

    @Test func exactlyTheOwnerAnswersTheDesksCloseAndAnErasure() async throws {
        let bus = InMemoryMessageBus()
        let instances = try await pair(bus)
        let zero = Self.walkers(in: 0, 2)
        let one = Self.walkers(in: 1, 1)[0]
        let results = try await bus.subscribe("safewalk/_desk/result", qos: .atLeastOnce)
        // Every instance reads `_desk/close`; in order, so each has read the first close before it
        // answers the later ones. An answer of the wrong instance would come before those.
        let closes = [(zero[0], "d1"), (one, "d2"), (zero[1], "d3")]
        for (walker, id) in closes {
            let close = DeskClose(
                id: id, walker: walker, incident: "i-\(walker)", reason: .resolved, note: nil, operator: "olga", at: 1)
            try await bus.publish(Topic.deskClose.name(), payload: try SafeWalkJSON.encode(close))
        }
        _ = try await results.first(3)
        let answers = bus.published(matching: "safewalk/_desk/result").map { try? $0.decoded(DeskCloseResult.self) }
        #expect(answers.compactMap { $0?.id }.sorted() == ["d1", "d2", "d3"])
        #expect(instances[0].service.answers(for: zero[0]) && !instances[1].service.answers(for: zero[0]))
        #expect(instances[1].service.answers(for: one) && !instances[0].service.answers(for: one))
        // An unreadable request names no walker: partition 0 alone refuses it.
        #expect(instances[0].service.answers(for: nil) && !instances[1].service.answers(for: nil))
        for instance in instances { await instance.cleanUp() }
    }
}
