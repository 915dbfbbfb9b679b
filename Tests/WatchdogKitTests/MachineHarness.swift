import SafeWalkCore
import Synchronization
import Testing
import WatchdogKit

/// Escalation ids `e1`, `e2`, … in the order the machine asks for them.
final class CountingIDs: Sendable {
    private let count = Mutex(0)

    func next() -> String {
        count.withLock {
            $0 += 1
            return "e\($0)"
        }
    }
}

/// Drives one walker's machine on a virtual clock, the way the scheduler would: `run(until:)`
/// steps `.timer` at each scheduled wake-up in turn. Escalation ids count up: `e1`, `e2`, …
struct MachineHarness {
    var machine: WatchMachine
    var watch: Watch
    var now: EpochSeconds
    private(set) var log: [(at: EpochSeconds, action: WatchAction)] = []

    init(thresholds: SafetyThresholds = .defaults, start: EpochSeconds = 1_000) {
        let ids = CountingIDs()
        machine = WatchMachine(thresholds: thresholds, makeID: { ids.next() })
        now = start
        watch = WatchMachine.fresh(try! WalkerID("alice"), now: start)
    }

    @discardableResult
    mutating func send(_ event: WatchEvent, at time: EpochSeconds) -> [WatchAction] {
        run(until: time, inclusive: false)
        return step(event, at: time)
    }

    @discardableResult
    mutating func act(_ kind: Action.Kind, at time: EpochSeconds, id: String? = nil) -> [WatchAction] {
        send(.action(Action(id: id ?? "a\(log.count)-\(time)", kind: kind)), at: time)
    }

    /// Fires every wake-up strictly before (or up to and including) `time`.
    mutating func run(until time: EpochSeconds, inclusive: Bool = true) {
        var steps = 0
        while let wake = machine.nextWake(watch), inclusive ? wake <= time : wake < time {
            let before = watch
            step(.timer, at: wake)
            steps += 1
            // A wake-up that changes nothing would come back forever: that is a bug, not a hang.
            if watch == before || steps > 100_000 {
                Issue.record("the timer at \(wake) changed nothing; the machine would spin")
                return
            }
        }
        now = max(now, time)
    }

    @discardableResult
    private mutating func step(_ event: WatchEvent, at time: EpochSeconds) -> [WatchAction] {
        let (next, actions) = machine.step(watch, event, now: time)
        watch = next
        now = time
        log += actions.map { (time, $0) }
        return actions
    }

    var escalations: [(at: EpochSeconds, draft: EscalationDraft)] {
        log.compactMap { entry in
            if case .escalate(let draft) = entry.action { return (entry.at, draft) }
            return nil
        }
    }

    var prompts: [EpochSeconds] {
        log.compactMap { entry in
            if case .prompt(let at, _) = entry.action { return at }
            return nil
        }
    }

    var statuses: [WatchStatus] {
        log.compactMap { entry in
            if case .publishStatus(let status) = entry.action { return status }
            return nil
        }
    }

    /// Every `_incidents/{w}` state published, in order.
    var incidents: [IncidentState] {
        log.compactMap { entry in
            if case .publishIncident(let state) = entry.action { return state }
            return nil
        }
    }

    static func position(moved: Bool, at tst: EpochSeconds, lastMovedAt: EpochSeconds? = nil) -> WatchEvent {
        .position(
            PositionUpdate(
                fix: LocationFix(lat: 30.28, lon: -97.73, tst: tst, acc: 5),
                moved: moved, lastMovedAt: lastMovedAt ?? tst))
    }
}
