import Foundation
import GRDB
import LocationIngestKit
import SafeWalkCore
import SafeWalkStorage
import Synchronization
import TestSupport
import Testing

/// Counts commits, to prove a batch is one transaction.
final class CommitCounter: TransactionObserver, Sendable {
    let commits = Mutex(0)
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
    func databaseDidRollback(_ db: Database) {}
}

@Suite(.holdsResources) struct TrackStoreTests {
    let store: TrackStore
    let pool: DatabasePool
    let t0 = Fixtures.now

    init() throws {
        (pool, _) = try SQLiteStore.temporary(migrator: TrackStore.migrator)
        store = TrackStore(pool: pool)
    }

    func rows(_ n: Int, walker: WalkerID = Fixtures.alice) -> [HistoryRow] {
        (0..<n).map {
            HistoryRow(
                walker: walker, fix: LocationFix(lat: 30, lon: -97, tst: t0 + Double($0), acc: 5), receivedAt: t0)
        }
    }

    func track(at tst: EpochSeconds) -> WalkerTrack {
        WalkerTrack(
            last: LocationFix(lat: 30, lon: -97, tst: tst, acc: 5),
            anchor: MovementAnchor(lat: 30, lon: -97, acc: 5, tst: tst, movedAt: tst))
    }

    @Test func fiveThousandFixesAreWrittenInOneTransaction() async throws {
        let counter = CommitCounter()
        pool.add(transactionObserver: counter, extent: .databaseLifetime)
        try await store.save(history: rows(5000), tracks: [:])
        #expect(counter.commits.withLock { $0 } == 1)
        #expect(try store.historyCount() == 5000)
    }

    @Test func aReplayedFixIsStoredOnce() async throws {
        try await store.save(history: rows(3), tracks: [:])
        try await store.save(history: rows(3), tracks: [:])
        #expect(try store.historyCount() == 3)
    }

    @Test func tracksReloadAndNeverMoveBackwards() async throws {
        let newer = WalkerTrack(
            last: LocationFix(lat: 30, lon: -97, tst: t0 + 10, acc: 4),
            anchor: MovementAnchor(lat: 30, lon: -97, acc: 4, tst: t0 + 10, movedAt: t0 + 5))
        let older = WalkerTrack(
            last: LocationFix(lat: 31, lon: -97, tst: t0, acc: 4),
            anchor: MovementAnchor(lat: 31, lon: -97, acc: 4, tst: t0, movedAt: t0))
        try await store.save(history: [], tracks: [Fixtures.alice: newer])
        try await store.save(history: [], tracks: [Fixtures.alice: older])
        #expect(try store.loadTracks() == [Fixtures.alice: newer])
    }

    @Test func pruningRemovesOnlyFixesOlderThanTheCutoff() async throws {
        try await store.save(history: rows(10), tracks: [Fixtures.alice: track(at: t0 + 9)])
        #expect(try await store.prune(olderThan: t0 + 4) == 4)
        #expect(try store.history(of: Fixtures.alice).map(\.tst) == (4..<10).map { t0 + Double($0) })
    }
}

@Suite(.holdsResources) struct TrackStoreCompactionTests {
    let t0 = Fixtures.now

    func rows(_ range: Range<Int>) -> [HistoryRow] {
        range.map {
            HistoryRow(
                walker: Fixtures.alice, fix: LocationFix(lat: 30, lon: -97, tst: t0 + Double($0), acc: 5),
                receivedAt: t0)
        }
    }

    func count(_ table: String, _ pool: DatabasePool) throws -> Int {
        try pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    @Test func appendedHistoryMovesIntoTheClusteredTableOnceDueAndReplaysStayOnce() async throws {
        let (pool, _) = try SQLiteStore.temporary(migrator: TrackStore.migrator)
        let store = TrackStore(pool: pool, logLimit: 10)
        try await store.save(history: rows(0..<6), tracks: [:])
        #expect(!store.logIsFull)
        try await store.save(history: rows(3..<8), tracks: [:])  // 3, 4, 5 replayed
        #expect(store.logIsFull)
        #expect(try store.historyCount() == 8, "reads see the log before compaction, each fix once")
        #expect(try await store.compact() == 11)
        #expect(!store.logIsFull)
        #expect(try count("fix_log", pool) == 0)
        #expect(try count("fix", pool) == 8)
        let track = WalkerTrack(
            last: LocationFix(lat: 30, lon: -97, tst: t0 + 8, acc: 5),
            anchor: MovementAnchor(lat: 30, lon: -97, acc: 5, tst: t0, movedAt: t0))
        try await store.save(history: rows(7..<9), tracks: [Fixtures.alice: track])  // 7 replayed across the two tables
        #expect(try store.history(of: Fixtures.alice).map(\.tst) == (0..<9).map { t0 + Double($0) })
        #expect(try await store.prune(olderThan: t0 + 8) == 9, "pruning reaches both tables (rows, 7 twice)")
        #expect(try store.history(of: Fixtures.alice).map(\.tst) == [t0 + 8])
    }

    @Test func aRestartedStoreKnowsHowMuchItsLogHolds() async throws {
        let (pool, _) = try SQLiteStore.temporary(migrator: TrackStore.migrator)
        try await TrackStore(pool: pool, logLimit: 10).save(history: rows(0..<12), tracks: [:])
        #expect(TrackStore(pool: pool, logLimit: 10).logIsFull)
    }
}
