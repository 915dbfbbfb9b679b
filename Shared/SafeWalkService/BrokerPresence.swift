import Logging
import SafeWalkCore
import SafeWalkMQTT
import ServiceLifecycle

/// Owns the broker connection for the life of the process. Runs first, so the service group
/// stops it last: every other service has finished publishing before the client disconnects.
/// Announces `online` (retained) at start and `offline` on a clean stop; the Last Will covers
/// a crash.
struct BrokerPresence: Service {
    let client: MQTTClient
    let topic: String
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try await client.publish(MQTTMessage(topic: topic, payload: Presence.offline.payload, retain: true))
        } catch {
            logger.warning("could not announce offline", metadata: ["error": "\(error)"])
        }
        await client.shutdown()
        logger.info("disconnected from broker")
    }
}
