import LocationIngestKit
import SafeWalkCore
import Testing

/// A failed commit (disk full) keeps its rows for the next one instead of losing fixes the
/// broker acknowledged (found by the e2e fault injection, `disk-full-ingest`).
@Suite struct UnsavedBacklogTests {
    static func row(_ tst: EpochSeconds) -> HistoryRow {
        HistoryRow(walker: Fixtures.alice, fix: LocationFix(lat: 30, lon: -97, tst: tst, acc: 3), receivedAt: tst)
    }

    static func track(_ tst: EpochSeconds) -> WalkerTrack {
        WalkerTrack(
            last: LocationFix(lat: 30, lon: -97, tst: tst, acc: 3),
            anchor: MovementAnchor(lat: 30, lon: -97, acc: 3, tst: tst, movedAt: tst))
    }

    @Test func aFailedCommitIsWrittenWithTheNextOneBeforeTheNewRows() {
        var backlog = UnsavedBacklog(limit: 100)
        backlog.keep([Self.row(1), Self.row(2)], [Fixtures.alice: Self.track(2)])
        let next = backlog.including([Self.row(3)], [Fixtures.alice: Self.track(3)])
        #expect(next.history.map(\.fix.tst) == [1, 2, 3])
        #expect(next.tracks[Fixtures.alice]?.last.tst == 3)
        backlog.clear()
        #expect(backlog.isEmpty)
    }

    @Test func anOlderTrackFromANewBatchNeverReplacesTheBackloggedNewerOne() {
        var backlog = UnsavedBacklog(limit: 100)
        backlog.keep([Self.row(5)], [Fixtures.alice: Self.track(5)])
        #expect(backlog.including([Self.row(4)], [Fixtures.alice: Self.track(4)]).tracks[Fixtures.alice]?.last.tst == 5)
    }

    @Test func aBacklogBeyondItsLimitDropsTheOldestAndCountsThem() {
        var backlog = UnsavedBacklog(limit: 2)
        #expect(backlog.keep([Self.row(1), Self.row(2), Self.row(3)], [:]) == 1)
        #expect(backlog.history.map(\.fix.tst) == [2, 3])
        #expect(backlog.dropped == 1)
    }
}
