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
    let service: ServiceName

    func run() async throws {
        // The service group traps SIGTERM/SIGINT before it starts any service, so once `online`
        // is out a stop is always graceful (announcing it before the group ran let a quick
        // SIGTERM kill the process with the default action: exit 143).
        try await client.publish(MQTTMessage(topic: topic, payload: Presence.online.payload, retain: true))
        logger.info("ready", metadata: ["statusTopic": "\(topic)"])
        try? await gracefulShutdown()
        // With the broker gone the acknowledgement never comes: a stop must not hang on it.
        let announced = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                do {
                    try await client.publish(MQTTMessage(topic: topic, payload: Presence.offline.payload, retain: true))
                    return true
                } catch is CancellationError {
                    return false  // the 2 s below ran out first
                } catch {
                    SwallowedErrors.record(
                        error, service: service, site: "presence_offline", message: "offline not published",
                        logger: logger, level: .warning, metadata: ["topic": "\(topic)"])
                    return false
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(2))
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
        if !announced { logger.warning("could not announce offline; the broker may be gone") }
        await client.shutdown()
        logger.info("disconnected from broker")
    }
}
