import BenchSupport
import Foundation
import GRDB
import SafeWalkCore
import SafeWalkStorage
import WatchdogKit

/// 1,000,000 active watches in one engine: memory per watch, events per second through the
/// machine + scheduler (beside the bare machine without scheduler), and restore time from SQLite
/// (beside a raw scan of the same rows).
enum InProcessBench {
    static func run(watches count: Int, events: Int) async throws {
        let thresholds = SafetyThresholds.defaults
        let machine = WatchMachine(thresholds: thresholds)
        let walkers = (0..<count).map { try! WalkerID("w\($0)") }
        let t0: EpochSeconds = 1_700_000_000
        print(
            "watchdog-bench inprocess: \(count) watches, \(events) events; MemoryLayout<Watch>.size = \(MemoryLayout<Watch>.size) B"
        )

        // Memory: every walker on a walk, with a last fix.
        let before = Measure.residentBytes()
        var engine = WatchEngine(machine: machine)
        engine.reserve(count)
        let fillSeconds = Measure.seconds {
            for (n, walker) in walkers.enumerated() {
                let now = t0 + Double(n) * 1e-4
                _ = engine.handle(
                    .action(Action(id: "s\(n)", kind: .startWalk(destination: "Library", minutes: 20))),
                    for: walker, now: now)
                _ = engine.handle(position(now, moved: true), for: walker, now: now)
            }
        }
        let after = Measure.residentBytes()
        print(
            String(
                format: "memory: RSS %@ -> %@, %.0f bytes per active watch (engine + heap); filled in %.2f s",
                Measure.mb(before), Measure.mb(after), Double(after - before) / Double(count), fillSeconds))

        // Throughput: positions (every 4th moved), replies and imSafe, spread over all walkers,
        // with time advancing so deadlines really come due and fire through the heap.
        var now = t0 + 1
        var fired = 0
        var rng = SystemRandomNumberGenerator()
        let order = (0..<events).map { _ in Int.random(in: 0..<count, using: &rng) }
        let engineTime = Measure.timed {
            for (i, n) in order.enumerated() {
                now += 1e-4
                let event: WatchEvent =
                    switch i % 8 {
                    case 0, 2, 4, 6: position(now, moved: i % 4 == 0)
                    case 1, 5: .reply(text: "I'm okay 👍")
                    case 3: .action(Action(id: "i\(i)", kind: .imSafe))
                    default: .presence(.online)
                    }
                _ = engine.handle(event, for: walkers[n], now: now)
                if i % 1_000 == 0 { fired += engine.fireDue(now: now).count }
            }
        }
        // Baseline in the same run: the bare pure machine on one in-place array (no dictionary,
        // no heap), the floor the scheduler adds to.
        var bare = (0..<count).map { engine.watch(for: walkers[$0])! }
        var bareNow = now
        let bareTime = Measure.timed {
            for (i, n) in order.enumerated() {
                bareNow += 1e-4
                let event: WatchEvent = i % 2 == 0 ? position(bareNow, moved: i % 4 == 0) : .reply(text: "I'm okay 👍")
                bare[n] = machine.step(bare[n], event, now: bareNow).0
            }
        }
        let engineRate = Double(events) / engineTime.wall
        let bareRate = Double(events) / bareTime.wall
        print(
            String(
                format:
                    "events: machine + scheduler %.0f events/s (%.2f s; %d timer steps fired, heap %d entries); bare machine %.0f events/s; ratio %.2f",
                engineRate, engineTime.wall, fired, engine.scheduledEntries, bareRate, engineRate / bareRate))
        print(
            String(
                format:
                    "events per CPU second: machine + scheduler %.0f (%.2f s CPU); bare machine %.0f (%.2f s CPU); ratio %.2f",
                Double(events) / engineTime.cpu, engineTime.cpu, Double(events) / bareTime.cpu, bareTime.cpu,
                bareTime.cpu / engineTime.cpu))
        bare = []

        // Restore: write every watch to a real SQLite file, then time loading + scheduling them.
        let (pool, directory) = try SQLiteStore.temporary(migrator: WatchStore.migrator)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = WatchStore(database: pool)
        let writeStart = ContinuousClock.now
        for chunk in stride(from: 0, to: count, by: 50_000) {
            let slice = walkers[chunk..<min(chunk + 50_000, count)].map { engine.watch(for: $0)! }
            _ = try await store.commit(watches: slice, outbox: [])
        }
        let writeSeconds = Measure.elapsed(since: writeStart)
        engine = WatchEngine(machine: machine)
        var rawTime = (wall: 0.0, cpu: 0.0)
        let rawInstructions = try InstructionCount.of {
            rawTime = try Measure.timed {
                var rows = 0
                try pool.read { db in
                    let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM watch")
                    while try cursor.next() != nil { rows += 1 }
                }
                precondition(rows == count)
            }
        }
        var restored = WatchEngine(machine: machine)
        var restoreTime = (wall: 0.0, cpu: 0.0)
        let restoreInstructions = try InstructionCount.of {
            restoreTime = try Measure.timed {
                try store.restoreWatches(into: &restored)
            }
        }
        print(
            String(
                format:
                    "restore: %d watches loaded and scheduled in %.2f s (raw row scan of the same table %.2f s, ratio %.1f); written in %.2f s",
                restored.count, restoreTime.wall, rawTime.wall, restoreTime.wall / rawTime.wall, writeSeconds))
        print(
            String(
                format: "restore in CPU seconds: %.2f s (raw row scan %.2f s, ratio %.1f)",
                restoreTime.cpu, rawTime.cpu, restoreTime.cpu / rawTime.cpu))
        if let restoreInstructions, let rawInstructions {
            print(
                "restore in instructions: \(restoreInstructions) (raw row scan \(rawInstructions), ratio "
                    + String(format: "%.2f", Double(restoreInstructions) / Double(rawInstructions)) + ")")
        }
        precondition(restored.count == count)
    }

    static func position(_ now: EpochSeconds, moved: Bool) -> WatchEvent {
        .position(
            PositionUpdate(
                fix: LocationFix(lat: 30.28, lon: -97.73, tst: now, acc: 5), moved: moved,
                lastMovedAt: now))
    }
}
