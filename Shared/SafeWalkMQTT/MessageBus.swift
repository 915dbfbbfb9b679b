import Foundation

/// The one seam between services and the broker: MQTT in production (`MQTTClient`), in memory
/// in unit tests (`InMemoryMessageBus`).
public protocol MessageBus: Sendable {
    /// Returns once the message is as safe as its QoS promises (acknowledged for QoS 1/2).
    func publish(_ message: MQTTMessage) async throws
    /// Publishes every message and returns once each is as safe as its QoS promises, or failed:
    /// each one's error, nil where it was delivered. Publishes the messages concurrently, but a
    /// conformer may write them together (``MQTTClient``).
    func publish(all messages: [MQTTMessage]) async -> [(any Error)?]
    /// Messages whose topic matches `filter`, retained ones included.
    func subscribe(_ filter: String, qos: QoS) async throws -> MQTTSubscription
    /// Removes `filter` at the broker and ends every subscription to it.
    func unsubscribe(_ filter: String) async
    /// Messages matching `filter` that no subscription wants are dropped instead of held for a
    /// later one (see `MQTTClient`), and any held now are dropped too: for a service that
    /// subscribes and unsubscribes exact topics as it goes, so that one left in its persistent
    /// session by a crash does not pile up.
    func discardUnclaimed(matching filter: String)
}

extension MessageBus {
    /// One task per message: what a bus with no cheaper way to send a batch does.
    public func publish(all messages: [MQTTMessage]) async -> [(any Error)?] {
        await withTaskGroup(of: (Int, (any Error)?).self) { group in
            for (index, message) in messages.enumerated() {
                group.addTask {
                    do {
                        try await publish(message)
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            var outcomes: [(any Error)?] = Array(repeating: nil, count: messages.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
    }

    public func publish(_ topic: String, payload: Data, qos: QoS = .atLeastOnce, retain: Bool = false) async throws {
        try await publish(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retain))
    }

    public func publish(_ topic: String, string: String, qos: QoS = .atLeastOnce, retain: Bool = false) async throws {
        try await publish(MQTTMessage(topic: topic, string: string, qos: qos, retain: retain))
    }
}
