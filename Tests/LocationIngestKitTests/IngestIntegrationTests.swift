import Foundation
import GRDB
import LocationIngestKit
import Logging
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The real executable, a real broker, a real SQLite file.
@Suite(.serialized, .holdsResources) struct IngestIntegrationTests {
    var now: EpochSeconds { Date().timeIntervalSince1970 }
    let lat = 30.2849

    func fix(lat: Double, tst: EpochSeconds, acc: Double = 2) -> Data { Fixtures.fixJSON(lat: lat, tst: tst, acc: acc) }

    @Test func theOwnTracksBookletLocationExampleIsAccepted() async throws {
        let broker = try await MosquittoBroker.start()
        let ingest = SpawnedIngest(broker: broker)
        let process = try await ingest.start()
        let client = try await broker.client()
        let positions = try await client.subscribe("safewalk/alice/position", qos: .atLeastOnce)
        let tst = now.rounded(.down)
        try await client.publish("owntracks/alice/phone", payload: Fixtures.owntracksBookletLocation(tst: tst))
        let message = try #require(try await positions.first(1).first)
        let update = try SafeWalkJSON.decode(PositionUpdate.self, from: message.payload)
        #expect(update.fix.lat == 30.2849 && update.fix.acc == 75 && update.fix.tst == tst)
        #expect(!update.moved)
        #expect(try await ingest.stop(process) == 0)
        await client.shutdown()
        await broker.shutdown()
    }

    /// Twenty hostile inputs, each on a topic the service listens to, then one good fix.
    static func hostile(now: EpochSeconds) -> [(topic: String, payload: Data, reason: String)] {
        let t = Int(now)
        let fix = "safewalk/mallory/fix"
        func j(_ s: String) -> Data { Data(s.utf8) }
        return [
            (fix, j(#"{"v":1,"lat":30.28,"lon":-97.7"#), "malformed"),
            (fix, j(#"{"v":1,"lat":NaN,"lon":-97.7,"tst":\#(t)}"#), "malformed"),
            (fix, j(#"{"v":1,"lat":1e308,"lon":-97.7,"tst":\#(t)}"#), "latitude_out_of_range"),
            (fix, j(#"{"v":1,"lat":91,"lon":-97.7,"tst":\#(t)}"#), "latitude_out_of_range"),
            (fix, j(#"{"v":1,"lat":30,"lon":-181,"tst":\#(t)}"#), "longitude_out_of_range"),
            (fix, j(#"{"v":1,"lat":"30.28","lon":-97.7,"tst":\#(t)}"#), "wrong_type"),
            (fix, j(#"{"v":1,"lat":30.28,"lon":-97.7,"tst":"\#(t)"}"#), "wrong_type"),
            (fix, j(#"{"v":1,"lon":-97.7,"tst":\#(t)}"#), "missing_field"),
            (fix, j(#"{"lat":30.28,"lon":-97.7,"tst":\#(t)}"#), "missing_version"),
            (fix, j(#"{"v":2,"lat":30.28,"lon":-97.7,"tst":\#(t)}"#), "unsupported_version"),
            (fix, Data(repeating: 0x20, count: 1_048_576), "too_large"),
            (fix, Data(), "malformed"),
            (fix, Data([0xFF, 0xFE, 0x00, 0x7B, 0x22]), "malformed"),
            (fix, j(#"{"v":1,"lat":30.28,"lon":-97.7,"tst":\#(t + 86_400)}"#), "in_future"),
            (fix, j(#"{"v":1,"lat":30.28,"lon":-97.7,"tst":0}"#), "too_old"),
            (fix, j(#"{"v":1,"lat":30.28,"lon":-97.7,"tst":\#(t),"acc":-5}"#), "invalid_accuracy"),
            ("safewalk/wälker/fix", Fixtures.fixJSON(tst: now), "invalid_walker_id"),
            ("safewalk/_service/fix", Fixtures.fixJSON(tst: now), "invalid_walker_id"),
            ("safewalk/\(String(repeating: "w", count: 65))/fix", Fixtures.fixJSON(tst: now), "invalid_walker_id"),
            ("owntracks/🚶‍♀️/phone", Fixtures.owntracksBookletLocation(tst: now), "invalid_walker_id"),
        ]
    }

    @Test func twentyHostileInputsAreEachRejectedAndCountedAndAGoodFixAfterThemStillLands() async throws {
        let broker = try await MosquittoBroker.start()
        let ingest = SpawnedIngest(broker: broker)
        let process = try await ingest.start()
        let client = try await broker.client()
        let rejections = try await client.subscribe("safewalk/_rejected/location-ingest", qos: .atLeastOnce)
        let positions = try await client.subscribe("safewalk/+/position", qos: .atLeastOnce)
        let hostile = Self.hostile(now: now)
        #expect(hostile.count == 20)
        for input in hostile {
            try await client.publish(input.topic, payload: input.payload, qos: .atLeastOnce)
        }
        // `+` and `#` cannot even reach the service: the client library refuses such topics.
        for topic in ["safewalk/a+b/fix", "safewalk/#/fix", "owntracks/+/phone"] {
            await #expect(throws: MQTTError.self) {
                try await client.publish(topic, payload: Fixtures.fixJSON(tst: now))
            }
        }
        try await client.publish("safewalk/alice/fix", payload: Fixtures.fixJSON(tst: now))

        let reports = try await rejections.first(20, within: 15).map {
            try SafeWalkJSON.decode(Rejection.self, from: $0.payload)
        }
        #expect(reports.map(\.reason).sorted() == hostile.map(\.reason).sorted())
        #expect(reports.allSatisfy { $0.service == .locationIngest })
        let good = try #require(try await positions.first(1).first)
        #expect(good.topic == "safewalk/alice/position")
        #expect(try await ingest.stop(process) == 0)
        #expect(process.output.components(separatedBy: "input rejected").count - 1 == 20)
        await client.shutdown()
        await broker.shutdown()
    }

    @Test func anOutOfOrderReplayDoesNotMoveTheWalkerBackwards() async throws {
        let broker = try await MosquittoBroker.start()
        let ingest = SpawnedIngest(broker: broker)
        let process = try await ingest.start()
        let client = try await broker.client()
        let positions = try await client.subscribe("safewalk/alice/position", qos: .atLeastOnce)
        let t = now.rounded(.down)
        let live = [(0.0, t - 40), (50.0, t - 30), (100.0, t - 20)]
        for (metres, tst) in live {
            try await client.publish(
                "safewalk/alice/fix", payload: fix(lat: Fixtures.north(of: lat, by: metres), tst: tst))
        }
        // The phone reconnects and replays its queue: older fixes, back where it was.
        for (metres, tst) in [(0.0, t - 40), (10.0, t - 35), (60.0, t - 25)] {
            try await client.publish(
                "safewalk/alice/fix", payload: fix(lat: Fixtures.north(of: lat, by: metres), tst: tst))
        }
        try await client.publish("safewalk/alice/fix", payload: fix(lat: Fixtures.north(of: lat, by: 101), tst: t - 10))
        let seen = try await withTimeout(10, "the final position") {
            var seen: [PositionUpdate] = []
            for await m in positions {
                seen.append(try SafeWalkJSON.decode(PositionUpdate.self, from: m.payload))
                if seen.last?.fix.tst == t - 10 { break }
            }
            return seen
        }
        #expect(seen.map(\.fix.tst) == seen.map(\.fix.tst).sorted(), "positions only ever move forward")
        #expect(!seen.contains { [t - 35, t - 25].contains($0.fix.tst) })
        #expect(seen.last?.lastMovedAt == t - 20)
        #expect(try await ingest.stop(process) == 0)
        // The replayed fixes are history all the same (the exact duplicate only once).
        let store = try TrackStore.open(directory: ingest.dataDirectory, logger: Logger(label: "test"))
        #expect(try store.historyCount() == 6)
        await client.shutdown()
        await broker.shutdown()
    }

    @Test func aRestartKeepsTheMovementAnchorAndIsNotMovement() async throws {
        let broker = try await MosquittoBroker.start()
        let ingest = SpawnedIngest(broker: broker)
        let client = try await broker.client()
        let positions = try await client.subscribe("safewalk/alice/position", qos: .atLeastOnce)
        let t = now.rounded(.down)

        let first = try await ingest.start()
        // One at a time: fixes that arrive in the same batch are merged into one position.
        try await client.publish("safewalk/alice/fix", payload: fix(lat: lat, tst: t - 30))
        var before = try await positions.first(1).map { try SafeWalkJSON.decode(PositionUpdate.self, from: $0.payload) }
        try await client.publish("safewalk/alice/fix", payload: fix(lat: Fixtures.north(of: lat, by: 40), tst: t - 20))
        before += try await positions.first(1).map { try SafeWalkJSON.decode(PositionUpdate.self, from: $0.payload) }
        #expect(before.map(\.moved) == [false, true])
        #expect(try await ingest.stop(first) == 0)

        let second = try await ingest.start()
        try await client.publish("safewalk/alice/fix", payload: fix(lat: Fixtures.north(of: lat, by: 42), tst: t - 10))
        let after = try SafeWalkJSON.decode(
            PositionUpdate.self, from: try #require(try await positions.first(1).first).payload)
        #expect(after.fix.tst == t - 10)
        #expect(!after.moved, "2 m from the anchor kept across the restart")
        #expect(after.lastMovedAt == t - 20)
        #expect(try await ingest.stop(second) == 0)
        let db = try DatabaseQueue(path: ingest.dataDirectory.appendingPathComponent("location-ingest.sqlite").path)
        #expect(try await db.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        await client.shutdown()
        await broker.shutdown()
    }
}
