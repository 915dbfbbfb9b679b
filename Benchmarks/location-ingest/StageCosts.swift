import Foundation
import LocationIngestKit
import Logging
import SafeWalkMQTT

/// Where ingest's time goes, without a broker: decoding + deciding every message
/// (`IngestCore.plan`, single-threaded), storing them (`TrackStore.save`, batches of 5,000),
/// then compacting the whole log at once as ``HistoryCompactor`` does when ingest is quiet.
/// Each figure is this process's CPU seconds for the stage (the machine is shared: wall time
/// would count other people's work; nothing else in this process is busy meanwhile).
func stageCosts(_ messages: [MQTTMessage], directory: URL) async throws -> (
    decide: Double, store: Double, compact: Double
) {
    let core = IngestCore(prefix: "safewalk", settings: IngestSettings())
    let now = Date().timeIntervalSince1970
    var plans: [BatchPlan] = []
    let decideStart = processCPUSeconds()
    for start in stride(from: 0, to: messages.count, by: 5_000) {
        plans.append(core.plan(Array(messages[start..<min(start + 5_000, messages.count)]), now: now))
    }
    let decide = processCPUSeconds() - decideStart
    let store = try TrackStore.open(directory: directory, logger: Logger(label: "bench.stages"))
    let storeStart = processCPUSeconds()
    for plan in plans { try await store.save(history: plan.history, tracks: plan.tracks) }
    let compactStart = processCPUSeconds()
    try await store.compact()
    return (decide, compactStart - storeStart, processCPUSeconds() - compactStart)
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
