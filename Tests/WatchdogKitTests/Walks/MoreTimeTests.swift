import SafeWalkCore
import Testing

@testable import WatchdogKit

/// `extendWhileProgressing`: at the ETA a walker still getting closer is asked "need more time?"
/// once; an answer in the no-reply window extends the walk once, by its own length.
@Suite struct MoreTimeTests {
    typealias F = WalkFixtures
    /// Check-ins every 60 s and 120 s to answer, as by default; stillness far away.
    static let thresholds = SafetyThresholds(noMovementAfter: 100_000)

    /// A 10-minute walk from 1 000, 2 km out, closing in, a fix and a check-in answer a minute.
    func closingIn(extend: Bool = true) -> MachineHarness {
        var h = MachineHarness(thresholds: Self.thresholds)
        h.send(F.startWalk(minutes: 10, extend: extend), at: 1_000)
        for n in 0..<10 {
            let t = 1_030 + Double(n) * 60
            h.send(F.fix(meters: 2_000 - Double(n) * 80, acc: 10, at: t), at: t)
            h.send(.reply(text: "ok"), at: t + 1)
        }
        return h
    }

    @Test func withoutTheFlagTheETAIsOverdueAtOnce() {
        var h = closingIn(extend: false)
        h.run(until: 1_599.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_600)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
    }

    @Test func closingInAtTheETAAsksOnceInsteadOfEscalating() {
        var h = closingIn()
        let before = h.prompts.count
        h.run(until: 1_600)
        #expect(h.escalations.isEmpty)
        #expect(h.prompts.count == before + 1)
        // replyBy: the noReply deadline, 120 s after the last answer (1 571).
        #expect(
            h.log.last { if case .prompt = $0.action { true } else { false } }?.action
                == .prompt(at: 1_600, replyBy: 1_691))
        #expect(h.watch.state == .checking)
    }

    @Test func anAnswerExtendsTheWalkByItsLengthOnce() {
        var h = closingIn()
        h.run(until: 1_600)
        h.send(.reply(text: "yes, nearly there"), at: 1_640)
        #expect(h.watch.walk?.eta == 2_240, "the walk's 10 minutes again, from the answer")
        #expect(h.statuses.last?.walk?.eta == 2_240)
        // Still closing in at the new ETA, but only once: overdue at once.
        for n in 0..<10 {
            let t = 1_650 + Double(n) * 60
            h.send(F.fix(meters: 1_000 - Double(n) * 60, acc: 10, at: t), at: t)
            h.send(.reply(text: "ok"), at: t + 1)
        }
        h.run(until: 2_239.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 2_240)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
        #expect(h.escalations.first?.at == 2_240)
    }

    @Test func imSafeAnswersToo() {
        var h = closingIn()
        h.run(until: 1_600)
        h.act(.imSafe, at: 1_650)
        #expect(h.watch.walk?.eta == 2_250)
        #expect(h.watch.isWatching)
    }

    @Test func silenceUntilReplyByIsWalkOverdue() {
        var h = closingIn()
        h.run(until: 1_690.999)
        #expect(h.escalations.isEmpty)
        h.run(until: 1_691)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue], "walkOverdue, not noReply")
        #expect(h.escalations.first?.at == 1_691)
    }

    @Test func anAnswerAtReplyByIsLate() {
        var h = closingIn()
        h.run(until: 1_600)
        h.send(.reply(text: "yes"), at: 1_691)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
        h.act(.imSafe, at: 1_700)
        #expect(h.watch.walk == nil, "a late answer extends nothing: imSafe drops the overdue walk as before")
    }

    @Test func aWalkerWhoStoppedGettingCloserIsOverdueAtTheETA() {
        var h = MachineHarness(thresholds: Self.thresholds)
        h.send(F.startWalk(minutes: 10, extend: true), at: 1_000)
        let fixes = [
            (1_030.0, F.fix(meters: 2_000, acc: 10, at: 1_030)), (1_200, F.fix(meters: 1_500, acc: 10, at: 1_200)),
        ]
        let answers = stride(from: 1_060.0, through: 1_540, by: 60).map { ($0, WatchEvent.reply(text: "ok")) }
        for (t, event) in (fixes + answers).sorted(by: { $0.0 < $1.0 }) { h.send(event, at: t) }
        // Last closer at 1 200: 400 s before the ETA, longer than the 300 s stall window.
        h.run(until: 1_600)
        #expect(h.escalations.map(\.draft.reason) == [.walkOverdue])
    }

    @Test func closerExactlyAStallWindowBeforeTheETAIsNotClosingIn() {
        let progress = WalkProgress(duration: 600, extendWhileProgressing: true, stallSince: 1_300, closerAt: 1_300)
        #expect(!MoreTimeRule.shouldAsk(progress, now: 1_600, replyBy: 1_700, stallAfter: 300))
        #expect(MoreTimeRule.shouldAsk(progress, now: 1_599.999, replyBy: 1_700, stallAfter: 300))
        var asked = progress
        asked.moreTimeAskedAt = 1_500
        #expect(!MoreTimeRule.shouldAsk(asked, now: 1_599, replyBy: 1_700, stallAfter: 300), "once")
        #expect(!MoreTimeRule.shouldAsk(progress, now: 1_599, replyBy: 1_599, stallAfter: 300), "no time to answer")
    }
}
