import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// The circle (docs/CONTRACT.md, "The circle"): one loop over everything the circle owner reads,
/// a deadline alarm for its clocks, and an erasure entry point. The rules are pure
/// (``CircleRules``, ``IncidentSharing``, ``CircleTimers``); ``CircleOwner`` carries them out.
public struct CircleService: Service {
    let bus: any MessageBus
    let store: CircleStore
    let graph: CircleGraph
    let settings: CircleSettings
    let reporter: RejectionReporter
    let subscriptions: [MQTTSubscription]
    let clock: any ServiceClock
    let prefix: String
    let queue: AsyncStream<CircleInput>
    let enqueue: AsyncStream<CircleInput>.Continuation
    let interest: WatchedWalkers
    let logger: Logger

    /// What the circle owner reads, at QoS 1. Positions and statuses, the walkers' own retained
    /// topics, are subscribed one walker at a time while someone may see them
    /// (``WatchedSubscriptions``).
    public static func subscribe(bus: any MessageBus, prefix: String) async throws -> [MQTTSubscription] {
        var filters = [Topic.Kind.circleCommand, .member, .incident, .arrival, .escalation]
            .map { TopicFilter.every($0, prefix: prefix).rawValue }
        filters.append(Topic.acknowledgementResult.name(prefix: prefix))
        var subscriptions: [MQTTSubscription] = []
        for filter in filters { subscriptions.append(try await bus.subscribe(filter, qos: .atLeastOnce)) }
        return subscriptions
    }

    init(
        bus: any MessageBus, prefix: String, store: CircleStore, graph: CircleGraph, settings: CircleSettings,
        clock: any ServiceClock, reporter: RejectionReporter, logger: Logger, subscriptions: [MQTTSubscription]
    ) {
        self.bus = bus
        self.store = store
        self.graph = graph
        self.settings = settings
        self.reporter = reporter
        let interest = WatchedWalkers(graph.watchedWalkers)
        self.interest = interest
        self.subscriptions = subscriptions
        self.clock = clock
        self.prefix = prefix
        self.logger = logger
        (queue, enqueue) = AsyncStream.makeStream(of: CircleInput.self)
    }

    public func run() async throws {
        // Confined to this task: every input reaches it through the queue, one at a time.
        let owner = CircleOwner(
            bus: bus, prefix: prefix, store: store, graph: graph, settings: settings, clock: clock,
            reporter: reporter, logger: logger, interest: interest)
        try await owner.start()
        let alarm = DeadlineAlarm(clock: clock) { [enqueue] in enqueue.yield(.timer) }
        defer { alarm.cancel() }
        alarm.arm(owner.nextDeadline)
        try await withThrowingDiscardingTaskGroup { group in
            let watched = WatchedSubscriptions(bus: bus, prefix: prefix, logger: logger)
            group.addTask { [enqueue, interest] in
                await watched.run(changes: interest.changes) { walker, message in
                    // Dropped before the loop: one can still arrive after its walker stopped being
                    // watched, before the unsubscribe reaches the broker.
                    guard interest.contains(walker) else { return }
                    enqueue.yield(.message(message))
                }
            }
            for subscription in subscriptions {
                group.addTask { [enqueue] in
                    await subscription.forEachUntilShutdown { message in enqueue.yield(.message(message)) }
                    enqueue.finish()
                }
            }
            for await input in queue {
                try await owner.handle(input)
                if case .some(let deadline) = owner.movedDeadline() { alarm.arm(deadline) }
            }
            interest.finish()
        }
    }

    /// contacts-store's part of an account deletion, run in the loop like every other input.
    public func erase(_ walker: WalkerID) async -> Bool {
        await withCheckedContinuation { continuation in
            let queued = enqueue.yield(.erase(walker) { continuation.resume(returning: $0) })
            if case .terminated = queued { continuation.resume(returning: false) }
        }
    }
}
