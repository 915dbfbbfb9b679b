import Foundation
import Synchronization

/// Files restored watches into an engine on a thread of its own while the caller goes on
/// reading rows: a restart's two halves, stepping SQLite and decoding rows on one side, the
/// engine's index, slots and page faults on the other, each about half of it, run on two cores
/// at once (BENCHMARKS.md, "Restoring 1,000,000 watches"). The thread is a real one, not a task:
/// the reading side blocks GRDB's queue, and a bounded handoff between two loops must never
/// wait for a pool that has no thread left to run the other.
///
/// Usage: `file` batches in order, then `finish` once, which hands the engine back. The result
/// is what ``WatchEngine/restoreAll(expecting:_:)`` makes of the same watches in the same order.
final class WatchFiler: Sendable {
    static let batchSize = 256

    private let handoff = BatchHandoff<[Watch?]>(depth: 8)
    private let held: Mutex<WatchEngine?>
    private let done = DispatchSemaphore(value: 0)

    /// Starts filing into `engine`, which the filer holds until ``finish(_:)``.
    init(into engine: consuming WatchEngine, expecting count: Int) {
        held = Mutex(engine)
        Thread { [self] in fileAll(expecting: count) }.start()
    }

    func file(_ batch: [Watch?]) { handoff.put(batch) }

    private func fileAll(expecting count: Int) {
        // Taken out, so the engine's storage is not shared while it grows (no copy on write).
        var engine = held.withLock { $0.take() }!
        engine.restoreAll(expecting: count) { each in
            // Each watch is taken out of its batch (a move; the batch keeps nils), not copied.
            while var batch = handoff.take() {
                for index in batch.indices { if let watch = batch[index].take() { each(watch) } }
            }
        }
        held.withLock { $0 = engine }
        done.signal()
    }

    /// Files the last `batch`, waits for the thread to file everything, and hands the engine back.
    func finish(_ batch: [Watch?] = []) -> WatchEngine {
        if !batch.isEmpty { handoff.put(batch) }
        handoff.finish()
        done.wait()
        return held.withLock { $0.take() }!
    }
}
