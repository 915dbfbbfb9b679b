import SafeWalkCore
import Testing
import WatchdogKit

/// needHelp, panic and the one-incident-one-escalation rule.
@Suite struct IncidentRuleTests {
    @Test func needHelpEscalatesRedAtOnceEvenWhenNotWatched() {
        var h = MachineHarness()
        let actions = h.act(.needHelp, at: 1_000)
        #expect(h.escalations.map(\.draft.reason) == [.needHelp])
        #expect(h.escalations.first?.draft.level == .red)
        #expect(
            actions.contains(
                .publishStatus(
                    WatchStatus(
                        state: .alert, watching: false, since: 1_000, reason: .needHelp, level: .red))))
    }

    @Test func theNeedHelpQuickReplyEscalatesAtOnceAndAnswersThePrompt() {
        var h = MachineHarness()
        h.act(.start, at: 1_000)
        h.run(until: 1_060)
        h.send(.reply(text: "I need help 🚨"), at: 1_061)
        #expect(h.escalations.map(\.at) == [1_061])
        #expect(h.escalations.first?.draft.reason == .needHelp)
        #expect(h.escalations.first?.draft.level == .red)
        #expect(h.watch.timers.promptSentAt == nil)
    }

    @Test func aTypedNeedHelpWithoutAWatchStillEscalates() {
        var h = MachineHarness()
        h.send(.reply(text: "i need help!"), at: 1_000)
        #expect(h.escalations.map(\.draft.reason) == [.needHelp])
    }

    @Test func panicWithoutAWatchEscalatesWithItsLevel() {
        var h = MachineHarness()
        h.act(.panic(.amber), at: 1_000)
        #expect(h.escalations.map(\.draft.level) == [.amber])
        #expect(h.escalations.first?.draft.reason == .panic)
        #expect(h.watch.state == .alert)
        #expect(h.watch.isWatching == false)
    }

    @Test func anAmberIncidentThatTurnsRedEscalatesAgainOnceAsRed() {
        var h = MachineHarness()
        h.act(.panic(.amber), at: 1_000)
        h.act(.panic(.amber), at: 1_001)
        h.act(.panic(.red), at: 1_002)
        h.act(.panic(.red), at: 1_003)
        h.act(.needHelp, at: 1_004)
        #expect(h.escalations.map(\.draft.level) == [.amber, .red])
        #expect(h.escalations.map(\.at) == [1_000, 1_002])
    }

    @Test func aRedIncidentIsNeverFollowedByAnAmberOne() {
        var h = MachineHarness()
        h.act(.needHelp, at: 1_000)
        h.act(.panic(.amber), at: 1_001)
        h.act(.needHelp, at: 1_002)
        #expect(h.escalations.count == 1)
    }

    @Test func aTimedAmberIncidentTurnsRedOnNeedHelp() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_180)
        h.act(.needHelp, at: 1_200)
        #expect(h.escalations.map(\.draft.reason) == [.noReply, .needHelp])
        #expect(h.escalations.map(\.draft.level) == [.amber, .red])
    }

    @Test func otherTimedTriggersDuringAnIncidentDoNotEscalateAgain() {
        var h = MachineHarness()  // noReply and noMovement both at 120 s, the walk due at 180 s
        h.act(.startWalk(destination: "Library", minutes: 3), at: 1_000)
        h.run(until: 1_000 + 3_600)
        #expect(h.escalations.map(\.draft.reason) == [.noReply])
    }

    @Test func stopDuringAlertEndsTheIncidentAndTheWatch() {
        var h = MachineHarness()
        h.act(.start, at: 1_000)
        h.act(.panic(.red), at: 1_010)
        h.act(.stop, at: 1_020)
        #expect(h.watch.state == .safe)
        #expect(h.watch.isWatching == false)
        #expect(h.statuses.last == WatchStatus(state: .safe, watching: false, since: 1_020))
        h.run(until: 10_000)
        #expect(h.escalations.count == 1)
        #expect(h.machine.nextWake(h.watch) == nil)
    }

    @Test func imSafeEndsTheIncidentSoANewIncidentEscalatesAgain() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_180)
        h.act(.imSafe, at: 1_200)
        #expect(h.watch.state == .safe)
        h.run(until: 1_380)
        #expect(h.escalations.map(\.at) == [1_120, 1_320])
    }

    @Test func aRedeliveredActionIsAppliedOnce() {
        var h = MachineHarness()
        h.act(.start, at: 1_000, id: "s1")
        h.act(.needHelp, at: 1_010, id: "h1")
        h.act(.imSafe, at: 1_020, id: "i1")
        h.act(.needHelp, at: 1_030, id: "h2")
        h.act(.imSafe, at: 1_031, id: "i1")  // an old QoS 1 duplicate must not end the new incident
        #expect(h.watch.state == .alert)
        #expect(h.escalations.count == 2)
    }

    @Test func theEscalationCarriesTheLastFixAndTheWalk() {
        var h = MachineHarness()
        h.act(.startWalk(destination: "Dorm", minutes: 10), at: 1_000)
        h.send(MachineHarness.position(moved: true, at: 1_005), at: 1_005)
        h.act(.needHelp, at: 1_010)
        let draft = h.escalations.first?.draft
        #expect(draft?.walk == WalkPlan(destination: "Dorm", eta: 1_600))
        #expect(draft?.lastFix == FixSummary(lat: 30.28, lon: -97.73, acc: 5, tst: 1_005))
    }

    @Test func anOlderPositionDoesNotReplaceTheLastFix() {
        var h = MachineHarness()
        h.send(MachineHarness.position(moved: false, at: 1_010), at: 1_010)
        h.send(MachineHarness.position(moved: false, at: 1_000), at: 1_011)
        #expect(h.watch.lastFix?.tst == 1_010)
    }
}
