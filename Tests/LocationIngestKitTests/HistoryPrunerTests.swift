import Foundation
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkStorage
import TestSupport
import Testing

@Suite(.holdsResources) struct HistoryPrunerTests {
    @Test func historyIsPrunedAtStartAndThenEveryIntervalOfTheInjectedClock() async throws {
        let (pool, _) = try SQLiteStore.temporary(migrator: TrackStore.migrator)
        let store = TrackStore(pool: pool)
        let day: Double = 86_400
        let start: EpochSeconds = 100 * day
        // Fixes 31, 29.5 and 29 days old at start: only the first is past a 30-day retention.
        let rows = [31, 29.5, 29].map { age in
            HistoryRow(
                walker: Fixtures.alice, fix: LocationFix(lat: 30, lon: -97, tst: start - age * day, acc: 5),
                receivedAt: start)
        }
        let track = WalkerTrack(
            last: rows[2].fix,
            anchor: MovementAnchor(
                lat: 30, lon: -97, acc: 5, tst: rows[2].fix.tst,
                movedAt: rows[2].fix.tst))
        try await store.save(history: rows, tracks: [Fixtures.alice: track])

        let clock = ManualClock()
        let (pruned, prunes) = AsyncStream.makeStream(of: Int.self)
        let pruner = HistoryPruner(
            store: store, retention: 30 * day, interval: .seconds(day / 2), clock: clock,
            now: { start + Double(clock.elapsed.components.seconds) },
            logger: Logger(label: "test"), onPrune: { prunes.yield($0) })
        let task = Task { try await pruner.run() }
        var results = pruned.makeAsyncIterator()

        #expect(await results.next() == 1)
        #expect(try store.historyCount() == 2)
        await clock.waitForSleeper()
        await clock.advance(by: .seconds(day / 2))  // now 29.5 + 0.5 = 30 days: not yet older than 30
        #expect(await results.next() == 0)
        await clock.waitForSleeper()
        await clock.advance(by: .seconds(day / 2))  // 30.5 and 30 days old: the first goes
        #expect(await results.next() == 1)
        #expect(try store.historyCount() == 1)
        task.cancel()
        _ = await task.result
    }
}
