import Foundation
import LocationIngestKit
import SafeWalkCore
import SafeWalkMQTT
import Testing

@Suite struct IngestCoreTests {
    let core = IngestCore(prefix: "safewalk", settings: IngestSettings())
    let t0 = Fixtures.now
    let lat = 30.2849

    @Test func aBatchPublishesOnlyTheNewestPositionPerWalkerButKeepsItsMovement() throws {
        let batch = [
            Fixtures.fixMessage(tst: t0 - 30, acc: 1),
            Fixtures.fixMessage(lat: Fixtures.north(of: lat, by: 40), tst: t0 - 20, acc: 1),  // moves
            Fixtures.fixMessage(lat: Fixtures.north(of: lat, by: 41), tst: t0 - 10, acc: 1),  // does not
            Fixtures.fixMessage("bob", tst: t0),
        ]
        let plan = core.plan(batch, now: t0)
        #expect(plan.accepted == 4)
        #expect(plan.history.count == 4)
        let alice = try #require(plan.positions[Fixtures.alice])
        #expect(alice.fix.tst == t0 - 10)
        #expect(alice.moved, "movement earlier in the batch must not be hidden by coalescing")
        #expect(alice.lastMovedAt == t0 - 20)
        #expect(plan.positions.count == 2)
    }

    @Test func outOfOrderFixesAreStoredButDuplicatesAreNot() {
        _ = core.plan([Fixtures.fixMessage(tst: t0)], now: t0)
        let plan = core.plan([Fixtures.fixMessage(tst: t0), Fixtures.fixMessage(lat: 31, tst: t0 - 5)], now: t0)
        #expect(plan.duplicates == 1)
        #expect(plan.outOfOrder == 1)
        #expect(plan.history.map(\.fix.tst) == [t0 - 5])
        #expect(plan.positions.isEmpty)
        #expect(core.track(of: Fixtures.alice)?.last.tst == t0)
    }

    @Test func rejectionsDoNotStopTheRestOfTheBatch() {
        let batch = [
            MQTTMessage(topic: "safewalk/alice/fix", string: "{"),
            MQTTMessage(topic: "owntracks/alice/phone", string: #"{"_type":"card","name":"A"}"#),
            Fixtures.fixMessage(),
        ]
        let plan = core.plan(batch, now: t0)
        #expect(plan.rejections.map(\.reason) == ["malformed"])
        #expect(plan.ignored.map(\.type) == ["card"])
        #expect(plan.accepted == 1)
    }

    @Test func anOwnTracksWillMarksTheWalkerOfflineUntilItsNextFix() {
        let will = MQTTMessage(topic: "owntracks/alice/phone", string: #"{"_type":"lwt","tst":100}"#)
        let gone = core.plan([will], now: t0)
        #expect(gone.presenceChanged == [Fixtures.alice] && gone.willsChanged == [Fixtures.alice])
        #expect(core.will(of: Fixtures.alice) == OwnTracksWill(connectedAt: 100, offline: true))
        // The same will again (its retained copy after a restart) changes nothing.
        let again = core.plan([will], now: t0)
        #expect(again.presenceChanged.isEmpty && again.willsChanged.isEmpty)
        let back = core.plan([Fixtures.fixMessage(tst: t0)], now: t0)
        #expect(back.presenceChanged == [Fixtures.alice])
        #expect(core.will(of: Fixtures.alice) == OwnTracksWill(connectedAt: 100, offline: false))
        // Further fixes say nothing more; bob, who never left a will, never gets a presence.
        let steady = core.plan([Fixtures.fixMessage(tst: t0 + 1), Fixtures.fixMessage("bob", tst: t0)], now: t0 + 1)
        #expect(steady.presenceChanged.isEmpty)
        #expect(core.plan([will], now: t0).presenceChanged.isEmpty, "a replayed old will is not a new one")
    }

    @Test func retainedClearsOnOwnTracksTopicsAreNeitherFixesNorRejections() {
        let plan = core.plan([MQTTMessage(topic: "owntracks/alice/phone", payload: Data(), retain: false)], now: t0)
        #expect(plan.cleared == 1 && plan.rejections.isEmpty && plan.accepted == 0)
    }

    @Test func aBigBatchDecodedInParallelGivesTheSamePlanInTheSameOrder() async throws {
        // 3,000 fixes, three walkers, each walker's fixes ascending, with replays mixed in.
        var batch: [MQTTMessage] = []
        for i in 0..<1_000 {
            for walker in ["alice", "bob", "carol"] {
                let tst = t0 - 1_000 + Double(i) - (i % 7 == 3 ? 5 : 0)
                batch.append(
                    Fixtures.fixMessage(walker, lat: Fixtures.north(of: lat, by: Double(i) * 3), tst: tst, acc: 1))
            }
        }
        let settings = IngestSettings(policy: FixPolicy(maxAge: 3_600))
        let serial = IngestCore(prefix: "safewalk", settings: settings).plan(batch, now: t0)
        let parallel = await IngestCore(prefix: "safewalk", settings: settings).planConcurrently(batch, now: t0)
        #expect(parallel.history == serial.history)
        #expect(parallel.positions == serial.positions)
        #expect(parallel.tracks == serial.tracks)
        #expect((parallel.accepted, parallel.outOfOrder) == (serial.accepted, serial.outOfOrder))
        #expect(serial.outOfOrder > 0)
    }
}
