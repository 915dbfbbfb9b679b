import Foundation
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkStorage
import TestSupport
import Testing

@Suite(.holdsResources) struct HistoryCompactorTests {
    func rows(_ range: Range<Int>) -> [HistoryRow] {
        range.map {
            HistoryRow(
                walker: Fixtures.alice, fix: LocationFix(lat: 30, lon: -97, tst: Fixtures.now + Double($0), acc: 5),
                receivedAt: Fixtures.now)
        }
    }

    @Test func theLogIsCompactedOnlyAfterAWholeIntervalWithoutAppends() async throws {
        let (pool, _) = try SQLiteStore.temporary(migrator: TrackStore.migrator)
        let store = TrackStore(pool: pool)
        try await store.save(history: rows(0..<5), tracks: [:])
        let clock = ManualClock()
        let (compacted, compactions) = AsyncStream.makeStream(of: Int.self)
        let compactor = HistoryCompactor(
            store: store, interval: .seconds(2), clock: clock, logger: Logger(label: "test"),
            onCompaction: { compactions.yield($0) })
        let task = Task { try await compactor.run() }
        var results = compacted.makeAsyncIterator()

        await clock.waitForSleeper()
        await clock.advance(by: .seconds(2))  // nothing appended since it started: quiet
        #expect(await results.next() == 5)
        await clock.waitForSleeper()
        try await store.save(history: rows(5..<8), tracks: [:])
        await clock.advance(by: .seconds(2))  // appends during this interval: still busy
        await clock.waitForSleeper()
        #expect(store.pendingLogRows == 3)
        await clock.advance(by: .seconds(2))
        #expect(await results.next() == 3)
        #expect(store.pendingLogRows == 0)
        #expect(try store.history(of: Fixtures.alice).count == 8)
        task.cancel()
        try await task.value
    }
}
