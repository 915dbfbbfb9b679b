import Foundation

/// The one seam between services and the broker: MQTT in production (`MQTTClient`), in memory
/// in unit tests (`InMemoryMessageBus`).
public protocol MessageBus: Sendable {
    /// Returns once the message is as safe as its QoS promises (acknowledged for QoS 1/2).
    func publish(_ message: MQTTMessage) async throws
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
    public func publish(_ topic: String, payload: Data, qos: QoS = .atLeastOnce, retain: Bool = false) async throws {
        try await publish(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retain))
    }

    public func publish(_ topic: String, string: String, qos: QoS = .atLeastOnce, retain: Bool = false) async throws {
        try await publish(MQTTMessage(topic: topic, string: string, qos: qos, retain: retain))
    }
}
