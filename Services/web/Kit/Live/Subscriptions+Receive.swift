import SafeWalkMQTT
import SafeWalkService
import ServiceLifecycle

extension Sequence where Element == MQTTSubscription {
    /// Hands every message of every subscription to `receive`, each subscription read on a task of
    /// its own, until the service is asked to shut down gracefully (the live pages and the desk).
    func receiveUntilShutdown(_ receive: @escaping @Sendable (MQTTMessage) async -> Void) async {
        await withDiscardingTaskGroup { group in
            for subscription in self {
                group.addTask { await subscription.forEachUntilShutdown(receive) }
            }
        }
    }
}
