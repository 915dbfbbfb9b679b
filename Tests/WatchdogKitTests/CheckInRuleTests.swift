import SafeWalkCore
import Testing
import WatchdogKit

/// Check-ins: a prompt every 60 s; `noReply` after 120 s without a reply, counted from the last
/// reply or `imSafe`, or the start of the watch (the seed's rule; defaults).
@Suite struct CheckInRuleTests {
    @Test func startPublishesAWatchedSafeStatusWithTheNextCheckIn() {
        var h = MachineHarness()
        let actions = h.act(.start, at: 1_000, id: "s1")
        #expect(
            actions == [
                .answer(ActionResult(id: "s1", ok: true)),
                .publishStatus(
                    WatchStatus(
                        state: .safe, watching: true, since: 1_000, nextCheckInAt: 1_060, location: .on)),
            ])
    }

    @Test func thePromptComesExactlyAtTheCheckInIntervalNotBefore() {
        var h = MachineHarness()
        h.act(.start, at: 1_000)
        h.run(until: 1_059.999)
        #expect(h.prompts.isEmpty)
        h.run(until: 1_060)
        #expect(h.prompts == [1_060])
        #expect(h.watch.state == .checking)
        #expect(h.statuses.last?.state == .checking)
        #expect(h.log.contains { $0.action == .prompt(at: 1_060, replyBy: 1_120) })
    }

    @Test func aSilentWalkerEscalatesNoReplyExactlyOnce120SecondsAfterTheStart() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_119.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_120)
        #expect(h.escalations.map(\.at) == [1_120])
        #expect(h.escalations.first?.draft.reason == .noReply)
        #expect(h.escalations.first?.draft.level == .amber)
        h.run(until: 1_000 + 7_200)  // two more hours of silence
        #expect(h.escalations.count == 1)
        #expect(h.prompts == [1_060])
        #expect(h.machine.nextWake(h.watch) == nil)
    }

    @Test func aReplyAMillisecondBeforeTheDeadlineAnswersThePrompt() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.send(.reply(text: "hello"), at: 1_119.999)
        h.run(until: 1_150)
        #expect(h.escalations.isEmpty)
        #expect(h.watch.state == .safe)
        #expect(h.watch.nextCheckInAt(h.machine.thresholds) == 1_179.999)
        h.run(until: 1_239.998)
        #expect(h.escalations.isEmpty, "120 s counted from the reply")
        h.run(until: 1_239.999)
        #expect(h.escalations.map(\.at) == [1_239.999])
    }

    @Test func aReplyInTheSameInstantAsTheDeadlineIsLate() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.send(.reply(text: "I'm okay 👍"), at: 1_120)
        #expect(h.escalations.map(\.draft.reason) == [.noReply])
        #expect(h.watch.state == .alert, "a reply answers the prompt but does not end the incident")
    }

    @Test func freeTextAnswersTheCheckInAndRestartsTheInterval() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_060)
        h.send(.reply(text: "walking past the library now"), at: 1_100)
        #expect(h.watch.state == .safe)
        h.run(until: 1_159.9)
        #expect(h.prompts == [1_060])
        h.run(until: 1_160)
        #expect(h.prompts == [1_060, 1_160])
    }

    @Test func feelingNervousAnswersButPromptsTwiceAsSoonUntilAPlainAnswer() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_060)
        h.send(.reply(text: "Feeling nervous"), at: 1_070)
        #expect(h.watch.state == .safe)
        h.run(until: 1_100)
        #expect(h.prompts == [1_060, 1_100])
        h.send(.reply(text: "I'm okay 👍"), at: 1_110)
        h.run(until: 1_169.9)
        #expect(h.prompts == [1_060, 1_100])
        h.run(until: 1_170)
        #expect(h.prompts == [1_060, 1_100, 1_170])
        #expect(h.escalations.isEmpty)
    }

    @Test func imSafeResetsTheCheckInClockAndReturnsToSafe() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_060)
        h.act(.imSafe, at: 1_090)
        #expect(h.watch.state == .safe)
        #expect(
            h.statuses.last
                == WatchStatus(
                    state: .safe, watching: true, since: 1_090, nextCheckInAt: 1_150, location: .on))
        h.run(until: 1_400)
        #expect(h.prompts == [1_060, 1_150])
        #expect(h.escalations.map(\.at) == [1_210])
    }

    @Test func repeatedImSafeNeverEscalatesAndPublishesOnlyRealChanges() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.act(.imSafe, at: 1_010)
        let statusesBefore = h.statuses.count
        let again = h.act(.imSafe, at: 1_010)
        #expect(
            again.allSatisfy { if case .answer = $0 { true } else { false } },
            "the same imSafe at the same instant changes nothing but is answered")
        #expect(h.statuses.count == statusesBefore)
        h.act(.imSafe, at: 1_020)
        #expect(h.statuses.last?.nextCheckInAt == 1_080)
        #expect(h.escalations.isEmpty)
    }
}
