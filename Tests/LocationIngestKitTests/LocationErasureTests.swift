import Foundation
import GRDB
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// location-ingest's part of an account deletion: the walker's history and track leave SQLite
/// (both history tables) and memory, and its retained position is cleared; other walkers keep
/// theirs; asking again is fine.
@Suite(.holdsResources) struct LocationErasureTests {
    let bus = InMemoryMessageBus()
    let pool: DatabasePool
    let store: TrackStore
    let core = IngestCore(prefix: "safewalk", settings: IngestSettings())
    let t0 = Fixtures.now
    let bob = try! WalkerID("bob")

    init() throws {
        pool = try SQLiteStore.temporary(migrator: TrackStore.migrator).0
        store = TrackStore(pool: pool)
    }

    func service() -> LocationIngestService {
        let logger = Logger(label: "test")
        let t0 = self.t0
        return LocationIngestService(
            bus: bus, prefix: "safewalk", core: core, store: store,
            reporter: RejectionReporter(service: .locationIngest, prefix: "safewalk", bus: bus, logger: logger),
            stats: IngestStats(), logger: logger, now: { t0 })
    }

    /// Alice and Bob each with history in `fix` (compacted) and in `fix_log`, and a track.
    func twoWalkers(_ ingest: LocationIngestService) async throws {
        await ingest.handle([Fixtures.fixMessage("alice", tst: t0 - 20), Fixtures.fixMessage("bob", tst: t0 - 20)])
        try await store.compact()
        await ingest.handle([Fixtures.fixMessage("alice", tst: t0 - 10), Fixtures.fixMessage("bob", tst: t0 - 10)])
        #expect(store.pendingLogRows == 2)
    }

    /// The topics of the retained messages a new subscriber to `filter` is handed at once (the
    /// in-memory bus hands them over while subscribing; at least one must match).
    func retainedTopics(_ filter: String) async throws -> [String] {
        let subscription = try await bus.subscribe(filter, qos: .atLeastOnce)
        defer { subscription.cancel() }
        var batches = subscription.batches.makeAsyncIterator()
        return await batches.next()?.map(\.topic) ?? []
    }

    @Test func erasingAWalkerRemovesHistoryTrackAndPositionAndKeepsOthers() async throws {
        let ingest = service()
        try await twoWalkers(ingest)

        #expect(await ingest.erase(Fixtures.alice) == nil)

        #expect(try store.history(of: Fixtures.alice).isEmpty)
        #expect(try store.history(of: bob).map(\.tst) == [t0 - 20, t0 - 10])
        #expect(try store.loadTracks().keys.sorted() == [bob])
        #expect(store.pendingLogRows == 1)
        #expect(core.track(of: Fixtures.alice) == nil && core.track(of: bob) != nil)
        #expect(try await retainedTopics("safewalk/+/position") == ["safewalk/bob/position"])
        let clear = try #require(bus.published(matching: "safewalk/alice/position").last)
        #expect(clear.retain && clear.payload.isEmpty)
    }

    @Test func erasingTwiceOrAWalkerWithNothingIsFine() async throws {
        let ingest = service()
        try await twoWalkers(ingest)
        #expect(await ingest.erase(Fixtures.alice) == nil)
        #expect(await ingest.erase(Fixtures.alice) == nil)
        #expect(await ingest.erase(try WalkerID("nobody")) == nil)
        #expect(try store.historyCount() == 2)
    }

    @Test func aFailedWriteIsAStoreErrorAndForgetsNothing() async throws {
        let ingest = service()
        try await twoWalkers(ingest)
        try await pool.write { db in try db.execute(sql: "DROP TABLE fix_log") }

        #expect(await ingest.erase(Fixtures.alice) == .storeError)
        #expect(core.track(of: Fixtures.alice) != nil)
        #expect(try store.loadTracks()[Fixtures.alice] != nil, "the transaction rolled back")
        #expect(bus.published(matching: "safewalk/alice/position").allSatisfy { !$0.payload.isEmpty })
    }
}
