import DequeModule
import Dispatch
import Synchronization

/// A bounded queue of batches from one thread to another, which blocks: `put` waits while
/// `depth` batches are queued, `take` waits for the next one. `finish` ends the stream; `take`
/// then answers nil.
///
/// For the restore (``WatchFiler``): both sides are synchronous loops on threads of their own,
/// so an async channel would not fit, and bounding it keeps the rows read ahead to a few batches
/// instead of a second copy of every watch.
final class BatchHandoff<Batch: Sendable>: Sendable {
    private let queued = Mutex(Deque<Batch?>())
    private let room: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)

    init(depth: Int) {
        precondition(depth > 0)
        room = DispatchSemaphore(value: depth)
    }

    func put(_ batch: Batch) { enqueue(batch) }

    /// No more batches: the taker's next `take` after the queued ones answers nil.
    func finish() { enqueue(nil) }

    /// The next batch, waiting for it; nil once the stream is finished.
    func take() -> Batch? {
        ready.wait()
        let batch = queued.withLock { $0.removeFirst() }
        room.signal()
        return batch
    }

    private func enqueue(_ batch: Batch?) {
        room.wait()
        queued.withLock { $0.append(batch) }
        ready.signal()
    }
}
