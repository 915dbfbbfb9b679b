import SafeWalkCore
import Testing
import WatchdogKit

/// The scheduler over all walkers: a heap keyed by deadline with lazy invalidation.
@Suite struct SchedulerTests {
    static let thresholds = SafetyThresholds(checkInInterval: 60, noReplyAfter: 120, noMovementAfter: 10_000)

    func walker(_ n: Int) -> WalkerID { try! WalkerID("w\(n)") }

    @Test func eachWalkerFiresAtItsOwnDeadlineInOrder() {
        var engine = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        for n in 0..<100 {
            _ = engine.handle(.action(Action(id: "s\(n)", kind: .start)), for: walker(n), now: 1_000 + Double(n))
        }
        #expect(engine.nextDeadline() == 1_060)
        let early = engine.fireDue(now: 1_059.999)
        #expect(early.isEmpty)
        let first = engine.fireDue(now: 1_060)
        #expect(first.map(\.watch.walker) == [walker(0)])
        #expect(first.first?.actions.contains(.prompt(at: 1_060, replyBy: 1_120)) == true)
        let rest = engine.fireDue(now: 1_099)
        #expect(rest.map(\.watch.walker) == (1..<40).map(walker))
        #expect(engine.nextDeadline() == 1_100)  // walker 40's check-in
    }

    @Test func reschedulingLeavesNoStaleFiring() {
        var engine = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        let w = walker(1)
        _ = engine.handle(.action(Action(id: "s", kind: .start)), for: w, now: 1_000)
        // Each reply moves the check-in later; the old heap entries must not fire.
        for t in stride(from: 1_010.0, through: 1_050, by: 10) {
            _ = engine.handle(.reply(text: "ok"), for: w, now: t)
        }
        #expect(engine.scheduledEntries >= 2)
        #expect(engine.fireDue(now: 1_109.999).isEmpty)
        #expect(engine.nextDeadline() == 1_110)
        let fired = engine.fireDue(now: 1_110)
        #expect(fired.count == 1)
        #expect(fired.first?.actions.contains(.prompt(at: 1_110, replyBy: 1_170)) == true)
    }

    @Test func aStoppedWatchIsNeverFired() {
        var engine = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        _ = engine.handle(.action(Action(id: "s", kind: .start)), for: walker(1), now: 1_000)
        _ = engine.handle(.action(Action(id: "x", kind: .stop)), for: walker(1), now: 1_001)
        #expect(engine.nextDeadline() == nil)
        #expect(engine.fireDue(now: 100_000).isEmpty)
    }

    @Test func restoredWatchesWhoseDeadlinesPassedAreDueAtOnce() {
        var source = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        for n in 0..<10 {
            _ = source.handle(
                .action(Action(id: "s", kind: .startWalk(destination: "X", minutes: 1))),
                for: walker(n), now: 1_000)
        }
        var restored = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        for n in 0..<10 { restored.restore(source.watch(for: walker(n))!) }
        let steps = restored.fireDue(now: 5_000)
        #expect(steps.count == 10)
        #expect(
            steps.allSatisfy { step in
                step.actions.contains { if case .escalate(let d) = $0 { d.reason == .walkOverdue } else { false } }
            })
        #expect(restored.fireDue(now: 50_000).isEmpty, "one incident, one escalation")
    }

    @Test func restoringAllAtOnceFiresExactlyAsRestoringOneByOne() {
        var source = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        for n in 0..<60 {
            let kind: Action.Kind = n % 3 == 0 ? .start : .startWalk(destination: "X", minutes: Double(n % 7 + 1))
            _ = source.handle(.action(Action(id: "s\(n)", kind: kind)), for: walker(n), now: 1_000 + Double(n))
        }
        _ = source.handle(.action(Action(id: "e", kind: .stop)), for: walker(5), now: 1_100)  // nothing to wake
        let watches = (0..<60).map { source.watch(for: walker($0))! }
        var oneByOne = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        for watch in watches { oneByOne.restore(watch) }
        var atOnce = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        atOnce.restore(all: watches)
        #expect(atOnce.count == 60)
        #expect(atOnce.scheduledEntries == oneByOne.scheduledEntries, "one entry per live deadline, none stale")
        #expect(atOnce.nextDeadline() == oneByOne.nextDeadline())
        var fired = 0
        for now in stride(from: 1_000.0, through: 2_000, by: 5) {
            // Incident ids are made anew at each escalation: compared are who fired, their clocks
            // and what escalated.
            func firings(_ steps: [WatchStep]) -> Set<String> {
                Set(steps.map { "\($0.watch.walker) \($0.watch.timers) \($0.watch.incident?.reason.rawValue ?? "-")" })
            }
            let expected = oneByOne.fireDue(now: now)
            let actual = atOnce.fireDue(now: now)
            #expect(firings(actual) == firings(expected), "at \(now)")
            #expect(actual.count == expected.count)
            fired += actual.count
        }
        #expect(fired > 60, "check-ins, prompts and overdue walks all came due")
    }

    @Test func manyReschedulesKeepTheHeapBounded() {
        var engine = WatchEngine(machine: WatchMachine(thresholds: Self.thresholds))
        for n in 0..<500 { _ = engine.handle(.action(Action(id: "s", kind: .start)), for: walker(n), now: 1_000) }
        for round in 0..<40 {
            for n in 0..<500 { _ = engine.handle(.reply(text: "ok"), for: walker(n), now: 1_001 + Double(round)) }
        }
        #expect(engine.scheduledEntries <= 3 * engine.count + 1_024 + 1)
        #expect(engine.nextDeadline() == 1_100)
        #expect(engine.fireDue(now: 1_100).count == 500)
    }
}
