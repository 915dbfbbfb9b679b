import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

/// Subscribes at the broker to `{w}/position` and `{w}/status` of each walker someone may see
/// now (``WatchedWalkers``), and to no one else's.
///
/// Why not `+/position` with the unwanted dropped on arrival: at walking pace that delivered every
/// walker's every position to contacts-store, which cost it 62,722 instructions per fix in the
/// cost benchmark with nobody to show them to, besides a PUBACK, a read and a wake-up in the
/// kernel for each, and the broker a delivery per fix (issue 22, BENCHMARKS.md).
///
/// A subscription made brings the walker's retained position and status at once. Ending one
/// unsubscribes at the broker. A graceful stop keeps them in the persistent session (the broker
/// queues for them meanwhile); one left behind by a crash, for a walker no longer watched, has its
/// messages dropped (`discardUnclaimed`), and is removed the next time that walker stops being
/// watched.
struct WatchedSubscriptions {
    let bus: any MessageBus
    let prefix: String
    let logger: Logger

    static func filters(of walker: WalkerID, prefix: String) -> [String] {
        [Topic.position(walker).name(prefix: prefix), Topic.status(walker).name(prefix: prefix)]
    }

    /// Follows `changes` until it ends, handing every message of a watched walker to `deliver`
    /// with the walker its subscription is for.
    func run(
        changes: AsyncStream<Set<WalkerID>>, deliver: @escaping @Sendable (WalkerID, MQTTMessage) -> Void
    ) async {
        await withDiscardingTaskGroup { group in
            var subscribed: Set<WalkerID> = []
            var first = true
            for await wanted in changes {
                for walker in subscribed.subtracting(wanted) {
                    for filter in Self.filters(of: walker, prefix: prefix) { await bus.unsubscribe(filter) }
                    subscribed.remove(walker)
                }
                for walker in wanted.subtracting(subscribed) {
                    let filters = Self.filters(of: walker, prefix: prefix)
                    var made: [MQTTSubscription] = []
                    do {
                        for filter in filters { made.append(try await bus.subscribe(filter, qos: .atLeastOnce)) }
                    } catch {
                        // Both or neither: a walker retried at the next change must not end up with
                        // its position subscribed twice, each message then read twice.
                        for filter in filters.prefix(made.count) { await bus.unsubscribe(filter) }
                        // A stop under way ends the client first; nothing to report then.
                        if Task.isShuttingDownGracefully { break }
                        // Tried again at the next change: the alert carries the escalation's lastFix meanwhile.
                        logger.error(
                            "could not subscribe to a watched walker",
                            metadata: ["walker": "\(walker)", "error": "\(error)"])
                        continue
                    }
                    for subscription in made {
                        group.addTask { await subscription.forEachUntilShutdown { deliver(walker, $0) } }
                    }
                    subscribed.insert(walker)
                }
                if first {
                    // Only now: what the session queued for the watched walkers was claimed above.
                    first = false
                    for kind in [Topic.Kind.position, .status] {
                        bus.discardUnclaimed(matching: TopicFilter.every(kind, prefix: prefix).rawValue)
                    }
                }
            }
        }
    }
}
