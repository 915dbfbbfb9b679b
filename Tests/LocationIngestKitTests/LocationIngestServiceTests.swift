import Foundation
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// The service's IO shell over an in-memory bus and a real temporary SQLite file.
@Suite(.holdsResources) struct LocationIngestServiceTests {
    let bus = InMemoryMessageBus()
    let store: TrackStore
    let t0 = Fixtures.now
    let lat = 30.2849

    init() throws {
        store = TrackStore(pool: try SQLiteStore.temporary(migrator: TrackStore.migrator).0)
    }

    func service(tracks: [WalkerID: WalkerTrack] = [:], stats: IngestStats = IngestStats()) -> LocationIngestService {
        let logger = Logger(label: "test")
        let t0 = self.t0
        return LocationIngestService(
            bus: bus, prefix: "safewalk",
            core: IngestCore(prefix: "safewalk", settings: IngestSettings(), tracks: tracks),
            store: store,
            reporter: RejectionReporter(service: .locationIngest, prefix: "safewalk", bus: bus, logger: logger),
            stats: stats, logger: logger, now: { t0 })
    }

    func positions() throws -> [PositionUpdate] {
        try bus.published(matching: "safewalk/alice/position").map {
            #expect($0.retain && $0.qos == .atLeastOnce)
            return try SafeWalkJSON.decode(PositionUpdate.self, from: $0.payload)
        }
    }

    @Test func anAcceptedFixIsStoredAndPublishedAsTheRetainedPosition() async throws {
        let stats = IngestStats()
        await service(stats: stats).handle([Fixtures.fixMessage(tst: t0)])
        #expect(try positions().map(\.fix.tst) == [t0])
        #expect(try store.history(of: Fixtures.alice).count == 1)
        #expect(stats.snapshot.stored == 1 && stats.snapshot.positionsPublished == 1)
    }

    @Test func aRestartIsNotMovementAndKeepsTheAnchor() async throws {
        await service().handle([Fixtures.fixMessage(tst: t0 - 60, acc: 2)])
        await service().handle([Fixtures.fixMessage(lat: Fixtures.north(of: lat, by: 30), tst: t0 - 50, acc: 2)])
        // Restart: a new service from what the store reloads.
        let reloaded = try store.loadTracks()
        #expect(reloaded[Fixtures.alice]?.anchor.movedAt == t0 - 50)
        await service(tracks: reloaded).handle([
            Fixtures.fixMessage(lat: Fixtures.north(of: lat, by: 32), tst: t0, acc: 2)
        ])
        let last = try #require(try positions().last)
        #expect(!last.moved, "2 m from the persisted anchor is not movement")
        #expect(last.lastMovedAt == t0 - 50)
    }

    @Test func aReplayedOlderFixGoesToHistoryButNotToThePosition() async throws {
        let ingest = service()
        await ingest.handle([Fixtures.fixMessage(tst: t0)])
        await ingest.handle([Fixtures.fixMessage(lat: 31, tst: t0 - 30)])
        #expect(try positions().map(\.fix.tst) == [t0])
        #expect(try store.history(of: Fixtures.alice).map(\.tst) == [t0 - 30, t0])
    }

    @Test func rejectionsAreReportedWithoutThePayload() async throws {
        let stats = IngestStats()
        let secret = "SECRET-\(UUID().uuidString)"
        await service(stats: stats).handle([
            MQTTMessage(topic: "safewalk/alice/fix", string: #"{"v":1,"lat":"\#(secret)","lon":1,"tst":1}"#)
        ])
        let reports = bus.published(matching: "safewalk/_rejected/location-ingest")
        #expect(reports.count == 1)
        let report = try SafeWalkJSON.decode(Rejection.self, from: reports[0].payload)
        #expect(report.reason == "wrong_type" && report.walker == Fixtures.alice && report.topicKind == .fix)
        #expect(!(reports[0].string ?? "").contains(secret))
        #expect(stats.snapshot.rejected == 1)
    }
}
