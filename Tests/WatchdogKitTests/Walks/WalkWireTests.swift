import Foundation
import GRDB
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

@testable import WatchdogKit

/// `to` and `extendWhileProgressing` on the wire, in the status, in SQLite and in the outbox.
@Suite(.holdsResources) struct WalkWireTests {
    typealias F = WalkFixtures
    let decoder = InputDecoder(prefix: "safewalk", maxBytes: 1_024)

    func startWalk(_ extra: String) -> Result<DecodedInput, InputRejection> {
        let payload = #"{"v":1,"action":"startWalk","id":"w1","destination":"Home","minutes":20"# + extra + "}"
        do {
            return .success(
                try decoder.decode(MQTTMessage(topic: "safewalk/alice/action", string: payload), now: 1_000))
        } catch {
            return .failure(error)
        }
    }

    @Test func startWalkCarriesToAndTheFlag() throws {
        let decoded = try startWalk(#","to":{"lat":30.2862,"lon":-97.7394},"extendWhileProgressing":true"#).get()
        let action = Action(
            id: "w1", kind: .startWalk(destination: "Home", minutes: 20), to: Coordinate(lat: 30.2862, lon: -97.7394),
            extendWhileProgressing: true)
        #expect(decoded == .event(try WalkerID("alice"), .action(action)))
        #expect(try SafeWalkJSON.decode(Action.self, from: SafeWalkJSON.encode(action)) == action)
    }

    @Test func startWalkWithoutThemIsTheWalkItAlwaysWas() throws {
        let decoded = try startWalk("").get()
        let action = Action(id: "w1", kind: .startWalk(destination: "Home", minutes: 20))
        #expect(decoded == .event(try WalkerID("alice"), .action(action)))
        #expect(String(decoding: try SafeWalkJSON.encode(action), as: UTF8.self).contains(#""to""#) == false)
    }

    /// A bad `to` refuses the action, with a code and the action's id, like any invalid action.
    @Test(arguments: [
        (#","to":{"lat":90.0001,"lon":0}"#, "invalid_value"),
        (#","to":{"lat":-91,"lon":0}"#, "invalid_value"),
        (#","to":{"lat":0,"lon":180.5}"#, "invalid_value"),
        (#","to":{"lat":0,"lon":-181}"#, "invalid_value"),
        (#","to":{"lat":1e999,"lon":0}"#, nil),
        (#","to":{"lat":"30.2","lon":0}"#, "wrong_type"),
        (#","to":{"lat":30.2}"#, "missing_field"),
        (#","to":"home""#, "wrong_type"),
        (#","to":null"#, "accepted"),
        (#","extendWhileProgressing":"yes""#, "wrong_type"),
    ])
    func aBadDestinationIsRefused(extra: String, code: String?) {
        switch startWalk(extra) {
        case .success:
            #expect(code == "accepted", "accepted \(extra)")
        case .failure(let rejection):
            #expect(code == nil || rejection.code == code, "\(extra): \(rejection.code)")
            #expect(rejection.code != "accepted")
            if code != nil { #expect(rejection.id == "w1", "the device can tell which action was refused") }
            #expect(rejection.topicKind == .action)
        }
    }

    @Test func theBoundariesOfTheEarthAreOnIt() {
        #expect(Coordinate(lat: 90, lon: 180).isOnEarth && Coordinate(lat: -90, lon: -180).isOnEarth)
        #expect(!Coordinate(lat: .nan, lon: 0).isOnEarth && !Coordinate(lat: 0, lon: .infinity).isOnEarth)
    }

    @Test func theStatusShowsWhereTheWalkGoes() throws {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 10), at: 1_000)
        let walk = try #require(h.statuses.last?.walk)
        #expect(walk == WalkPlan(destination: "Home", eta: 1_600, to: F.home))
        let json = String(decoding: try #require(h.statuses.last).jsonPayload(), as: UTF8.self)
        #expect(json.contains(#""walk":{"destination":"Home","eta":1600,"to":{"lat":30.2862,"lon":-97.7394}}"#))
    }

    @Test func theHandWrittenPayloadsWithToReadLikeTheSharedEncoders() throws {
        let walk = WalkPlan(destination: "Library", eta: 1_700_000_720.5, to: Coordinate(lat: -33.8688, lon: 151.2093))
        let status = WatchStatus(state: .safe, watching: true, since: 1, nextCheckInAt: 61, walk: walk)
        let escalation = EscalationEvent(
            id: "e1", walker: try WalkerID("alice"), reason: .walkOverdue, level: .amber, at: 2, lastFix: nil,
            walk: walk)
        for (fast, slow) in [
            (try status.jsonPayload(), try SafeWalkJSON.encode(status)),
            (try escalation.jsonPayload(), try SafeWalkJSON.encode(escalation)),
        ] {
            let fastObject = try JSONSerialization.jsonObject(with: fast) as? NSDictionary
            let slowObject = try JSONSerialization.jsonObject(with: slow) as? NSDictionary
            #expect(fastObject == slowObject)
        }
        #expect(try SafeWalkJSON.decode(WatchStatus.self, from: status.jsonPayload()) == status)
        #expect(try SafeWalkJSON.decode(EscalationEvent.self, from: escalation.jsonPayload()) == escalation)
    }

    @Test func aWalkWrittenBeforeToReadsAsAWalkWithoutIt() throws {
        let old = #"{"since":1,"state":"safe","v":1,"walk":{"destination":"Library","eta":720},"watching":true}"#
        let status = try SafeWalkJSON.decode(WatchStatus.self, from: Data(old.utf8))
        #expect(status.walk == WalkPlan(destination: "Library", eta: 720))
        #expect(try status.jsonPayload() == Data(old.utf8), "and is written back byte for byte")
    }

    @Test func aWalkInProgressSurvivesARestart() async throws {
        let (pool, directory) = try SQLiteStore.temporary(migrator: WatchStore.migrator)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = WatchStore(database: pool)
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(minutes: 10, extend: true), at: 1_000)
        h.send(F.fix(meters: 900, acc: 10, at: 1_010), at: 1_010)
        h.send(F.fix(meters: 700, acc: 10, at: 1_100), at: 1_100)
        h.send(F.fix(F.home, acc: 10, at: 1_200), at: 1_200)
        var asked = h.watch
        asked.progress?.moreTimeAskedAt = 1_250
        asked.progress?.stallPrompted = true
        asked.progress?.extended = true
        #expect(h.watch.progress?.fixesAtDestination == 1)
        _ = try await store.commit(watches: [asked], outbox: [])
        let restored = try await store.restore(into: WatchEngine(machine: WatchMachine(thresholds: F.quiet))).engine
        #expect(restored.count == 1 && restored.watch(for: asked.walker) == asked)
    }

    /// A watchdog upgraded during a walk: the row from before `v4` loads as a walk without `to`.
    @Test func aRowFromBeforeV4LoadsAsAWalkWithoutTo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-v3-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("watchdog.sqlite").path)
        try WatchStore.migrator.migrate(pool, upTo: "v3: incident ids")
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO watch (walker, watchedSince, lastCheckInAt, walkETA, walkDestination, stateSince,
                        concerned, recentActions) VALUES ('alice', 1000, 1000, 1600, 'Library', 1000, 0, '')
                    """)
        }
        try WatchStore.migrator.migrate(pool)
        let watches = try WatchStore(database: pool).loadWatches()
        #expect(watches.map(\.walk) == [WalkPlan(destination: "Library", eta: 1_600)])
        #expect(watches.first?.progress == nil)
        #expect(watches.first?.isWatching == true)
    }

    @Test func anArrivalGoesOutOnItsServicesOnlyTopicThroughTheOutbox() throws {
        let alice = try WalkerID("alice")
        let arrival = Arrival(walker: alice, at: 1_110, destination: "Home", automatic: true)
        let items = try OutboxComposer(prefix: "safewalk").items(for: alice, [.publishArrival(arrival)], now: 1_110)
        #expect(items.count == 1)
        #expect(items.first?.topic == "safewalk/_arrivals/alice")
        #expect(items.first?.retain == false)
        #expect(items.first?.kind == .arrival)
        #expect(try SafeWalkJSON.decode(Arrival.self, from: try #require(items.first).payload) == arrival)
        #expect(
            String(decoding: try #require(items.first).payload, as: UTF8.self)
                == #"{"at":1110,"automatic":true,"destination":"Home","v":1,"walker":"alice"}"#)
    }
}
