import Foundation
import LocationIngestKit
import Logging
import SafeWalkMQTT

/// Where ingest's time goes, without a broker: decoding + deciding every message
/// (`IngestCore.plan`, single-threaded) and storing them (`TrackStore.save`, batches of 5,000).
func stageCosts(_ messages: [MQTTMessage], directory: URL) async throws -> (decide: Double, store: Double) {
    let core = IngestCore(prefix: "safewalk", settings: IngestSettings())
    let now = Date().timeIntervalSince1970
    let clock = ContinuousClock()
    var plans: [BatchPlan] = []
    let decide = clock.measure {
        for start in stride(from: 0, to: messages.count, by: 5_000) {
            plans.append(core.plan(Array(messages[start..<min(start + 5_000, messages.count)]), now: now))
        }
    }
    let store = try TrackStore.open(directory: directory, logger: Logger(label: "bench.stages"))
    let begin = clock.now
    for plan in plans {
        try await store.save(history: plan.history, tracks: plan.tracks)
        if store.compactionDue { try await store.compact() }
    }
    return (seconds(decide), seconds(clock.now - begin))
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
