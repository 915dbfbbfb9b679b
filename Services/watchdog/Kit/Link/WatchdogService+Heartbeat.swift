import SafeWalkCore
import SafeWalkMQTT

extension WatchdogService {
    /// Asks the broker for a word every `heartbeat` seconds, so that a quiet link (few walkers,
    /// nothing to publish) still proves itself to the ``BrokerLink``: a QoS 1 `online` on
    /// `_heartbeat/watchdog`, which nobody reads. The time of each acknowledgement is kept, in
    /// order, for the loop to read, and wakes it. On a cut link the publish waits, and the
    /// acknowledgement, when it comes, is the word that ends the silence.
    func beat(_ settings: BrokerLink.Settings) async {
        let message = MQTTMessage(
            topic: Topic.heartbeat(.watchdog).name(prefix: options.prefix), payload: Presence.online.payload,
            qos: .atLeastOnce, retain: false)
        while !Task.isCancelled {
            do {
                try await bus.publish(message)
                let at = clock.now()
                heartbeatAcknowledgements.withLock { $0.append(at) }
                inbox.poke()
                try await clock.sleep(until: at + settings.heartbeat)
            } catch is CancellationError {
                return
            } catch {
                // Refused while the client shuts down or the bus is closed: try again a beat later.
                try? await clock.sleep(until: clock.now() + settings.heartbeat)
            }
        }
    }
}
