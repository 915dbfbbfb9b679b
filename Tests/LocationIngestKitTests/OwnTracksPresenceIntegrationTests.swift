import Foundation
import LocationIngestKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

/// The real executable and broker: an OwnTracks app's Last Will becomes `offline` on the walker's
/// presence, its next location `online`, and the retained will handed over again after a restart
/// is not mistaken for a new one.
@Suite(.serialized, .holdsResources) struct OwnTracksPresenceIntegrationTests {
    /// What OwnTracks sets as its will (retained here: the broker then hands it to ingest again
    /// when it resubscribes after a restart, the case the will's `tst` is remembered for).
    static let will = Data(#"{"_type":"lwt","tst":1750000000}"#.utf8)

    @Test func aVanishedOwnTracksAppIsOfflineUntilItsNextLocationAcrossARestart() async throws {
        let broker = try await MosquittoBroker.start()
        let ingest = SpawnedIngest(broker: broker)
        var process = try await ingest.start()
        let phone = try await broker.client()
        let watchdog = try await broker.client()
        let presence = try await watchdog.subscribe("safewalk/+/presence", qos: .atLeastOnce)

        try await phone.publish("owntracks/alice/phone", payload: Self.will, qos: .atLeastOnce, retain: true)
        let offline = try #require(try await presence.first(1).first)
        #expect(offline.topic == "safewalk/alice/presence" && offline.string == "offline")
        #expect(try await retained("safewalk/alice/presence", on: broker) == "offline")

        let tst = Date().timeIntervalSince1970.rounded(.down)
        try await phone.publish("owntracks/alice/phone", payload: Fixtures.owntracksBookletLocation(tst: tst))
        #expect(try await presence.first(1).first?.string == "online")

        // A restart: the broker hands the retained will over again (at once, as ingest
        // subscribes); ingest remembers it. Bob's will, sent after, is the next word said.
        #expect(try await ingest.stop(process) == 0)
        process = try await ingest.start()
        try await phone.publish("owntracks/bob/phone", payload: Self.will, qos: .atLeastOnce)
        let next = try #require(try await presence.first(1).first)
        #expect(next.topic == "safewalk/bob/presence", "alice's old will was taken for a new one")
        #expect(try await retained("safewalk/alice/presence", on: broker) == "online")

        // A new connection's will (a later `tst`) is a new departure.
        try await phone.publish(
            "owntracks/alice/phone", payload: Data(#"{"_type":"lwt","tst":1750000999}"#.utf8), qos: .atLeastOnce)
        let again = try #require(try await presence.first(1).first)
        #expect(again.topic == "safewalk/alice/presence" && again.string == "offline")

        #expect(try await ingest.stop(process) == 0)
        await phone.shutdown()
        await watchdog.shutdown()
        await broker.shutdown()
    }

    @Test func erasingTheWalkerForgetsItsWill() async throws {
        let bob = try WalkerID("bob")
        let (pool, directory) = try SQLiteStore.temporary(migrator: TrackStore.migrator)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = TrackStore(pool: pool)
        let will = OwnTracksWill(connectedAt: 100, offline: true)
        try await store.save(history: [], tracks: [:], wills: [Fixtures.alice: will, bob: will])
        #expect(try store.loadWills() == [Fixtures.alice: will, bob: will])
        try await store.erase(Fixtures.alice)
        #expect(try store.loadWills() == [bob: will])
    }

    /// The retained message a new subscriber is handed at once on `topic`, as text.
    func retained(_ topic: String, on broker: MosquittoBroker) async throws -> String? {
        let reader = try await broker.client()
        let subscription = try await reader.subscribe(topic, qos: .atLeastOnce)
        let message = try await subscription.first(1, within: 30).first
        await reader.shutdown()
        return message?.string
    }
}
