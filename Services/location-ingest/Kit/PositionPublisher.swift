import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService

/// Publishes retained positions at QoS 1.
struct PositionPublisher: Sendable {
    let bus: any MessageBus
    let prefix: String
    let stats: IngestStats
    let logger: Logger

    /// Keeps the newest position per walker (by `tst`, whatever order the updates come in);
    /// `moved` stays true if any merged update moved, so coalescing never hides movement
    /// (`lastMovedAt` is the newest's, which is the latest).
    @Sendable static func merge(_ into: inout [WalkerID: PositionUpdate], _ other: [WalkerID: PositionUpdate]) {
        for (walker, update) in other { merge(&into, walker, update) }
    }

    static func merge(_ into: inout [WalkerID: PositionUpdate], _ walker: WalkerID, _ update: PositionUpdate) {
        guard let existing = into[walker] else {
            into[walker] = update
            return
        }
        var newest = existing.fix.tst > update.fix.tst ? existing : update
        newest.moved = existing.moved || update.moved
        into[walker] = newest
    }

    /// All concurrently: awaiting each PUBACK in turn would cap ingest at one round trip per walker.
    func publish(_ positions: [WalkerID: PositionUpdate]) async {
        guard !positions.isEmpty else { return }
        let published = await withTaskGroup(of: Bool.self) { group in
            for (walker, update) in positions {
                let payload: Data
                do {
                    payload = try update.jsonPayload()
                } catch {
                    // Skips this walker's position this round; the next fix publishes it.
                    SwallowedErrors.record(
                        error, service: .locationIngest, site: "position_encode", message: "position not encodable",
                        logger: logger, metadata: ["walker": "\(walker)"])
                    continue
                }
                let topic = Topic.position(walker).name(prefix: prefix)
                group.addTask {
                    do {
                        try await bus.publish(
                            MQTTMessage(topic: topic, payload: payload, qos: .atLeastOnce, retain: true))
                        return true
                    } catch is CancellationError {
                        return false  // shutting down; the broker has the previous position
                    } catch {
                        logger.warning(
                            "position not published", metadata: ["walker": "\(walker)", "error": "\(error)"])
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        stats.recordPublished(published)
    }
}
