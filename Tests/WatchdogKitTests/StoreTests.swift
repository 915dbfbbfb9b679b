import Foundation
import GRDB
import SafeWalkCore
import SafeWalkStorage
import TestSupport
import Testing
import WatchdogKit

/// The SQLite file: watches round-trip, the outbox keeps what the broker has not acknowledged.
@Suite(.holdsResources) struct StoreTests {
    func store() throws -> (WatchStore, URL) {
        let (pool, directory) = try SQLiteStore.temporary(migrator: WatchStore.migrator)
        return (WatchStore(database: pool), directory)
    }

    @Test func everyFieldOfAWatchSurvivesARoundTrip() async throws {
        let (store, directory) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = Watch(
            walker: try WalkerID("alice"),
            timers: WatchTimers(
                watchedSince: 1, lastCheckInAt: 2, promptSentAt: 3, lastMovedAt: 4, walkETA: 5,
                offlineSince: 6),
            walk: WalkPlan(destination: "Library 🏛", eta: 5),
            incident: Incident(id: "incident-1", reason: .panic, level: .amber, at: 7),
            stateSince: 8, lastFix: FixSummary(lat: 30.1, lon: -97.2, acc: nil, tst: 9), concerned: true,
            recentActions: [RememberedAction(id: "a", answer: "ok"), RememberedAction(id: "b c", answer: "wrong_pin")],
            hold: HoldSwitch(level: .amber, lastBeatAt: 11, note: "On Guadalupe St"),
            pins: PINHashes(salt: [1, 2, 3], cancel: [4, 5], duress: [6]), wrongPins: 2,
            duress: Incident(id: "incident-0", reason: .noReply, level: .red, at: 12), usesLocation: false,
            locationPausedAt: 13)
        let bare = Watch(walker: try WalkerID("bob"), stateSince: 10)
        _ = try await store.commit(watches: [full, bare], outbox: [])
        let loaded = try store.loadWatches().sorted { $0.walker.rawValue < $1.walker.rawValue }
        #expect(loaded == [full, bare])
        // What the service restores at start-up: straight from the rows into the engine.
        let restored = try await store.restore(into: WatchEngine(machine: WatchMachine(thresholds: .defaults))).engine
        #expect(restored.count == 2)
        #expect(restored.watch(for: full.walker) == full && restored.watch(for: bare.walker) == bare)
    }

    /// The restore reads rows on one thread and files them into the engine on another, in
    /// batches (``WatchFiler``): every row arrives, once, as the engine would have filed it in
    /// order, across batch boundaries (1,000 rows are three full batches and part of a fourth),
    /// and into an engine that already holds one of the walkers.
    @Test func aRestoreAcrossManyBatchesFilesEveryWatchOnce() async throws {
        let (store, directory) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let machine = WatchMachine(thresholds: .defaults)
        let watches = try (0..<1_000).map { n in
            Watch(
                walker: try WalkerID("w\(n)"),
                timers: WatchTimers(watchedSince: Double(n), lastCheckInAt: Double(n), lastMovedAt: Double(n)),
                stateSince: Double(n), recentActions: [RememberedAction(id: "a\(n)", answer: "ok")])
        }
        _ = try await store.commit(watches: watches, outbox: [])
        var expected = WatchEngine(machine: machine)
        expected.restore(all: try store.loadWatches())
        var restored = try await store.restore(into: WatchEngine(machine: machine)).engine
        #expect(restored.count == 1_000)
        #expect(watches.allSatisfy { restored.watch(for: $0.walker) == $0 })
        #expect(restored.scheduledEntries == expected.scheduledEntries)
        #expect(restored.nextDeadline() == expected.nextDeadline())

        // A walker the engine already has is replaced by its stored watch, and only its stored
        // deadline stays live.
        var holding = WatchEngine(machine: machine)
        holding.restore(
            Watch(walker: watches[500].walker, timers: WatchTimers(watchedSince: 1, lastCheckInAt: 1), stateSince: 1))
        holding.restore(Watch(walker: try WalkerID("zed"), stateSince: 2))
        var merged = try await store.restore(into: holding).engine
        #expect(merged.count == 1_001)
        #expect(merged.watch(for: watches[500].walker) == watches[500])
        #expect(merged.watch(for: try WalkerID("zed"))?.stateSince == 2)
        #expect(merged.nextDeadline() == expected.nextDeadline())
    }

    /// A watchdog upgraded while an incident is open: migration `v3` gives the incident the id of
    /// the walker's latest escalation of its kind (what contacts heard of last), the duress one
    /// the latest duress escalation's; walkers without an incident get none.
    @Test func anIncidentOpenAcrossTheUpgradeTakesTheIDOfItsLatestEscalation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-v2-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("watchdog.sqlite").path)
        try WatchStore.migrator.migrate(pool, upTo: "v2: hold-to-release, PINs, duress")
        try pool.write { db in
            let watch = """
                INSERT INTO watch (walker, incidentReason, incidentLevel, incidentAt, stateSince, concerned,
                    recentActions, duressReason, duressAt) VALUES (?, ?, ?, ?, 0, 0, '', ?, ?)
                """
            try db.execute(sql: watch, arguments: ["alice", "noReply", "red", 1_180, "noReply", 1_190])
            try db.execute(sql: watch, arguments: ["bob", nil, nil, nil, nil, nil])
            try db.execute(sql: watch, arguments: ["carol", "panic", "red", 1_200, nil, nil])
            let escalation = """
                INSERT INTO outbox (key, kind, walker, topic, payload, retain, createdAt, sentAt)
                VALUES (?, ?, ?, '', ?, 0, 0, 1)
                """
            let plain = Data(#"{"at":1,"id":"x","level":"red"}"#.utf8)
            let duress = Data(#"{"at":1,"duress":true,"id":"x","level":"red"}"#.utf8)
            try db.execute(sql: escalation, arguments: ["amber-1", "escalation", "alice", plain])
            try db.execute(sql: escalation, arguments: ["red-2", "escalation", "alice", plain])
            try db.execute(sql: escalation, arguments: ["duress-3", "escalation", "alice", duress])
            try db.execute(sql: escalation, arguments: ["prompt-4", "prompt", "alice", plain])
            try db.execute(sql: escalation, arguments: ["bob-1", "escalation", "bob", plain])
        }
        try WatchStore.migrator.migrate(pool)
        let watches = Dictionary(
            uniqueKeysWithValues: try WatchStore(database: pool).loadWatches().map { ($0.walker.rawValue, $0) })
        #expect(watches["alice"]?.incident?.id == "red-2")
        #expect(watches["alice"]?.duress?.id == "duress-3")
        #expect(watches["bob"]?.incident == nil && watches["bob"]?.duress == nil)
        #expect(watches["carol"]?.incident?.id == "carol-1200.0", "no escalation kept: an id all the same")
    }

    /// Migration `v5`: a watch written before follows the location, unpaused, as every watch did.
    @Test func aWatchFromBeforeLocationSettingsFollowsTheLocation() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("watchdog-v4-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("watchdog.sqlite").path)
        try WatchStore.migrator.migrate(pool, upTo: "v4: walks that know where they are going")
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO watch (walker, watchedSince, lastCheckInAt, stateSince, concerned, recentActions)
                    VALUES ('alice', 1000, 1000, 1000, 0, '')
                    """)
        }
        try WatchStore.migrator.migrate(pool)
        let alice = try #require(try WatchStore(database: pool).loadWatches().first)
        #expect(alice.usesLocation && alice.locationPausedAt == nil)
        #expect(alice.location == .on)
    }

    @Test func theOutboxKeepsUnsentRowsAndMarksEscalationsSentAfterAck() async throws {
        let (store, directory) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let alice = try WalkerID("alice")
        let composer = OutboxComposer(prefix: "safewalk")
        let draft = EscalationDraft(id: "e1", reason: .noReply, level: .amber, at: 100, lastFix: nil, walk: nil)
        let items = try composer.items(
            for: alice,
            [
                .publishStatus(WatchStatus(state: .checking, watching: true, since: 90)),
                .escalate(draft),
            ], now: 100)
        let rows = try await store.commit(watches: [], outbox: items)
        #expect(try store.unsent().map(\.item) == items)
        #expect(try await store.restore(into: WatchEngine(machine: WatchMachine(thresholds: .defaults))).unsent == rows)
        try await store.markSent(rows, at: 101)
        #expect(try store.unsent().isEmpty)
        let counts = try store.escalationCount()
        #expect(counts.total == 1 && counts.unsent == 0)
    }

    /// An erasure right after an incident closed: the close still goes out (the notifier sends
    /// all-clears from it), before the clears, even after a crash; everything else goes.
    @Test func anErasureKeepsAnUnsentCloseAheadOfTheClears() async throws {
        let (store, directory) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let alice = try WalkerID("alice")
        let composer = OutboxComposer(prefix: "safewalk")
        let close = IncidentState(
            incident: "e1", walker: alice, state: .closed, reason: .panic, level: .red, duress: false, openedAt: 1,
            closedAt: 2, closedBy: .imSafe)
        let draft = EscalationDraft(id: "e1", reason: .panic, level: .red, at: 1, lastFix: nil, walk: nil)
        let sent = try await store.commit(
            watches: [], outbox: try composer.items(for: alice, [.escalate(draft)], now: 1))
        try await store.markSent(sent, at: 1)
        let items = try composer.items(
            for: alice,
            [.publishStatus(WatchStatus(state: .safe, watching: false, since: 2)), .publishIncident(close)],
            now: 2)
        _ = try await store.commit(watches: [Watch(walker: alice)], outbox: items)
        _ = try await store.erase(alice, clearing: WatchErasure.clears(alice, prefix: "safewalk", now: 3))
        #expect(
            try store.unsent().map(\.item.key) == ["incident/alice/e1", "status/alice", "incident/alice"])
        #expect(try store.escalationCount().total == 0)
        #expect(try store.loadWatches().isEmpty)
    }

    @Test func aNewerStatusReplacesAnOlderUnsentOne() async throws {
        let (store, directory) = try store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let alice = try WalkerID("alice")
        let composer = OutboxComposer(prefix: "safewalk")
        let old = try composer.items(
            for: alice, [.publishStatus(WatchStatus(state: .safe, watching: true, since: 1))], now: 1)
        let new = try composer.items(
            for: alice, [.publishStatus(WatchStatus(state: .checking, watching: true, since: 2))], now: 2)
        let oldRows = try await store.commit(watches: [], outbox: old)
        _ = try await store.commit(watches: [], outbox: new)
        try await store.markSent(oldRows, at: 3)  // the old one's ack must not remove the new one
        #expect(try store.unsent().map(\.item) == new)
    }

    @Test func theEscalationPayloadIsTheContractsEvent() throws {
        let composer = OutboxComposer(prefix: "safewalk")
        let walker = try WalkerID("alice")
        let draft = EscalationDraft(
            id: "id-1", reason: .walkOverdue, level: .amber, at: 100,
            lastFix: FixSummary(lat: 1, lon: 2, acc: 3, tst: 4),
            walk: WalkPlan(destination: "Gym", eta: 99))
        let items = try composer.items(for: walker, [.escalate(draft)], now: 100)
        #expect(items.count == 1)
        let item = items[0]
        #expect(item.topic == "safewalk/alice/escalation")
        #expect(item.key == "id-1")
        let json = String(decoding: item.payload, as: UTF8.self)
        #expect(
            json == #"{"at":100,"id":"id-1","incident":"id-1","lastFix":{"acc":3,"lat":1,"lon":2,"tst":4},"#
                + #""level":"amber","reason":"walkOverdue","v":1,"walk":{"destination":"Gym","eta":99},"walker":"alice"}"#
        )
    }
}
