import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import ServiceLifecycle

/// Reads every walker's retained incident state (`{p}/_incidents/+`, the watchdog's) and hands it
/// to the ``OwnTracksCommander``. After a restart the broker hands every retained state over again;
/// the commander remembers what each device was told, so that repeats nothing.
public struct IncidentFollower: Service {
    let subscription: MQTTSubscription
    let prefix: String
    let commander: OwnTracksCommander
    let logger: Logger

    /// `{p}/_incidents/+` at QoS 1; made before the service announces `online`.
    public static func subscribe(bus: any MessageBus, prefix: String) async throws -> MQTTSubscription {
        try await bus.subscribe(TopicFilter.every(.incident, prefix: prefix).rawValue, qos: .atLeastOnce)
    }

    public init(subscription: MQTTSubscription, prefix: String, commander: OwnTracksCommander, logger: Logger) {
        self.subscription = subscription
        self.prefix = prefix
        self.commander = commander
        self.logger = logger
    }

    public func run() async throws {
        for await message in subscription.cancelOnGracefulShutdown() {
            await handle(message)
        }
    }

    /// One incident state; an empty payload (a retained state cleared by an erasure) is no incident.
    public func handle(_ message: MQTTMessage) async {
        guard let topic = Topic.parse(message.topic, prefix: prefix), topic.kind == .incident,
            let walker = topic.walker
        else { return }
        guard !message.payload.isEmpty else {
            await commander.follow(walker, incident: nil)
            return
        }
        do {
            let incident = try SafeWalkJSON.decode(IncidentState.self, from: message.payload)
            guard incident.walker == walker else {
                logger.warning("incident state for another walker ignored", metadata: ["walker": "\(walker)"])
                return
            }
            await commander.follow(walker, incident: incident)
        } catch {
            // Only the watchdog writes here (ACL): an unreadable state is a bug to see, not input.
            logger.error("incident state unreadable", metadata: ["walker": "\(walker)", "error": "\(error)"])
        }
    }
}
