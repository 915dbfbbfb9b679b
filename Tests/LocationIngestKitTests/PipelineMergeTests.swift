import SafeWalkCore
import Testing

@testable import LocationIngestKit

@Suite struct PipelineMergeTests {
    func update(_ tst: EpochSeconds, moved: Bool) -> PositionUpdate {
        PositionUpdate(fix: LocationFix(lat: 30, lon: -97, tst: tst, acc: 3), moved: moved, lastMovedAt: tst)
    }

    @Test func coalescedPositionsKeepTheNewestFixAndAnyMovement() {
        var positions = [Fixtures.alice: update(10, moved: true)]
        PositionPublisher.merge(&positions, [Fixtures.alice: update(20, moved: false)])
        #expect(positions[Fixtures.alice]?.fix.tst == 20)
        #expect(positions[Fixtures.alice]?.moved == true)
    }

    @Test func anOlderUpdateMergedLateNeverReplacesANewerOne() {
        var positions = [Fixtures.alice: update(20, moved: false)]
        PositionPublisher.merge(&positions, [Fixtures.alice: update(10, moved: false)])
        #expect(positions[Fixtures.alice]?.fix.tst == 20)
    }

    @Test func aMailboxMergesWhatPilesUpAndDrainsBeforeEnding() async {
        let mailbox = Mailbox<[Int]>(merge: { $0 += $1 })
        mailbox.offer([1])
        mailbox.offer([2, 3])
        mailbox.finish()
        #expect(await mailbox.take() == [1, 2, 3])
        #expect(await mailbox.take() == nil)
    }

    @Test func aPacedConsumerMergesWhatArrivesDuringItsRest() async {
        let clock = ManualClock()
        let mailbox = Mailbox<[Int]>(merge: { $0 += $1 })
        let (calls, record) = AsyncStream.makeStream(of: [Int].self)
        let consumer = Task {
            await mailbox.consume(pacedBy: .milliseconds(500), on: clock) { record.yield($0) }
            record.finish()
        }
        var seen = calls.makeAsyncIterator()
        mailbox.offer([1])
        #expect(await seen.next() == [1], "idle: handled at once")
        await clock.waitForSleeper()
        mailbox.offer([2])
        mailbox.offer([3])
        await clock.advance(by: .milliseconds(499))
        mailbox.offer([4])
        await clock.advance(by: .milliseconds(1))
        #expect(await seen.next() == [2, 3, 4], "one call for everything offered during the rest")
        mailbox.finish()
        await clock.waitForSleeper()
        await clock.advance(by: .milliseconds(500))
        #expect(await seen.next() == nil)
        await consumer.value
    }
}
