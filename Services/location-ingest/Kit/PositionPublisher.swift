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

    /// All as one batch (``MessageBus/publish(all:)``): awaiting each PUBACK in turn would cap
    /// ingest at one round trip per walker, and a task per position cost a TCP send and a
    /// wake-up each.
    func publish(_ positions: [WalkerID: PositionUpdate]) async {
        guard !positions.isEmpty else { return }
        var walkers: [WalkerID] = []
        var messages: [MQTTMessage] = []
        walkers.reserveCapacity(positions.count)
        messages.reserveCapacity(positions.count)
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
            walkers.append(walker)
            messages.append(
                MQTTMessage(
                    topic: Topic.position(walker).name(prefix: prefix), payload: payload, qos: .atLeastOnce,
                    retain: true))
        }
        var published = 0
        for (walker, outcome) in zip(walkers, await bus.publish(all: messages)) {
            switch outcome {
            case nil: published += 1
            case is CancellationError: break  // shutting down; the broker has the previous position
            case let error?:
                logger.warning("position not published", metadata: ["walker": "\(walker)", "error": "\(error)"])
            }
        }
        stats.recordPublished(published)
    }
}
