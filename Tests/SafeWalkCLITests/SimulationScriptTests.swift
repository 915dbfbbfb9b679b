import SafeWalkCore
import Testing

@testable import SafeWalkCLI

/// When the simulated walker sends what: worked out from the settings, no clock involved.
@Suite struct SimulationScriptTests {
    let alice = try! WalkerID("alice")
    let cancel = PIN("1234")!
    let duress = PIN("9876")!

    func steps(_ configure: (inout SimulationSettings) -> Void) -> [ScriptStep] {
        var settings = SimulationSettings(walker: alice)
        configure(&settings)
        return Array(SimulationScript(settings))
    }

    @Test func aPlainWatchIsJustStart() {
        #expect(steps { _ in } == [ScriptStep(at: 0, .send(.start))])
        #expect(
            steps { $0.walk = ("Library", 12) } == [
                ScriptStep(at: 0, .send(.startWalk(destination: "Library", minutes: 12)))
            ])
    }

    @Test func pinsComeFirstThenStartThenTheHoldWithHeartbeatsUntilRelease() {
        let script = steps {
            $0.pins = PINSetup(change: PINChange(cancel: cancel, duress: duress), current: PIN("1111"))
            $0.hold = HoldPlan(level: .red, heartbeat: 2, end: .release, endsAfter: 7)
            $0.note = "Walking to my car"
        }
        #expect(
            script == [
                ScriptStep(at: 0, .send(.setPins(PINChange(cancel: cancel, duress: duress)), pin: PIN("1111"))),
                ScriptStep(at: 0, .send(.start)),
                ScriptStep(at: 0, .send(.hold(.red), note: "Walking to my car")),
                ScriptStep(at: 2, .heartbeat), ScriptStep(at: 4, .heartbeat), ScriptStep(at: 6, .heartbeat),
                ScriptStep(at: 7, .send(.release)),
            ])
    }

    @Test func noHeartbeatAtTheMomentTheHoldEnds() {
        let dropped = steps { $0.hold = HoldPlan(level: .amber, heartbeat: 2, end: .drop, endsAfter: 6) }
        #expect(dropped.map(\.at) == [0, 0, 2, 4, 6])
        #expect(dropped.last == ScriptStep(at: 6, .dropHold))
        let cancelled = steps { $0.hold = HoldPlan(level: .amber, heartbeat: 2, end: .cancel, endsAfter: 1) }
        #expect(cancelled.last == ScriptStep(at: 1, .send(.cancelHold)))
        #expect(!cancelled.contains(ScriptStep(at: 2, .heartbeat)))
    }

    @Test func timedActionsInterleaveWithHeartbeatsInTimeOrder() {
        let script = steps {
            $0.hold = HoldPlan(level: .red, heartbeat: 2, end: .release, endsAfter: 5)
            $0.needHelpAfter = 3
            $0.imSafeAfter = 4
            $0.note = "Someone is following me"
            $0.endPIN = duress
        }
        #expect(
            script.map(\.what) == [
                .send(.start), .send(.hold(.red), note: "Someone is following me"), .heartbeat,
                // At a tie (4 s) the scheduled action goes before the heartbeat.
                .send(.needHelp, note: "Someone is following me"), .send(.imSafe, pin: duress), .heartbeat,
                .send(.release),
            ])
        #expect(script.map(\.at) == [0, 0, 2, 3, 4, 4, 5])
    }

    @Test func nothingIsScheduledAfterTheRunEnds() {
        let script = steps {
            $0.duration = 5
            $0.hold = HoldPlan(level: .red, heartbeat: 2, end: .release, endsAfter: 30)
            $0.needHelpAfter = 5
        }
        #expect(script.map(\.at) == [0, 0, 2, 4])
    }

    @Test func aLongHoldIsMadeLazilyWithoutDrift() {
        var settings = SimulationSettings(walker: alice)
        settings.hold = HoldPlan(level: .red, heartbeat: 0.1, end: .release, endsAfter: 3600)
        let beats = SimulationScript(settings).filter { $0.what == .heartbeat }
        #expect(beats.count == 35_999)
        #expect(abs((beats.last?.at ?? 0) - 3599.9) < 1e-6)
    }
}
