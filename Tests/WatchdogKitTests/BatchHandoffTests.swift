import Foundation
import Synchronization
import Testing

@testable import WatchdogKit

/// The restore's handoff between the thread that reads rows and the one that files them.
@Suite struct BatchHandoffTests {
    /// Every batch arrives once and in order, however the two threads interleave, and the taker
    /// learns of the end only after the last batch. A depth of 2 makes the putter wait for the
    /// taker again and again over 5,000 batches.
    @Test func batchesArriveOnceInOrderThenTheEnd() {
        let handoff = BatchHandoff<[Int]>(depth: 2)
        let putting = Thread {
            for n in 0..<5_000 { handoff.put([n, -n]) }
            handoff.finish()
        }
        putting.start()
        var taken: [[Int]] = []
        while let batch = handoff.take() { taken.append(batch) }
        #expect(taken == (0..<5_000).map { [$0, -$0] })
    }

    /// The putter never has more than `depth` batches waiting: it is held until the taker takes.
    @Test func thePutterIsHeldAtTheDepth() {
        let handoff = BatchHandoff<Int>(depth: 3)
        let put = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            for n in 0..<10 {
                handoff.put(n)
                put.add(1, ordering: .sequentiallyConsistent)
            }
            handoff.finish()
            done.signal()
        }.start()
        var most = 0
        var taken: [Int] = []
        while let n = handoff.take() {
            // Taken so far + the depth bounds what was put (the putter may be one put ahead of the
            // count it has published, never beyond the room it was given).
            most = max(most, put.load(ordering: .sequentiallyConsistent) - taken.count)
            taken.append(n)
        }
        done.wait()
        #expect(taken == Array(0..<10))
        #expect(most <= 3 + 1)
    }
}
