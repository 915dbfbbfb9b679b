import SafeWalkCore
import Testing

@testable import SafeWalkCLI

/// The repeat decision, on numbers alone: no clock, no sleeps.
@Suite struct ActionRetryTests {
    let t0: EpochSeconds = 1_700_000_000
    let policy = ActionRepeat(every: 2, giveUpAfter: 7)

    func ok(_ id: String?) -> ActionAnswer { .result(ActionResult(id: id, ok: true)) }

    /// `receive`, outside `#expect` (which cannot call a mutating method).
    func take(_ retry: inout ActionRetry, _ answer: ActionAnswer) -> Bool { retry.receive(answer) }

    @Test func waitsThenStopsAtTheAnswer() {
        var retry = ActionRetry(id: "a1", sentAt: t0, policy: policy)
        #expect(retry.next(at: t0) == .wait(until: t0 + 2))
        #expect(take(&retry, ok("a1")))
        #expect(retry.next(at: t0 + 0.5) == .answered(ok("a1")))
        #expect(retry.next(at: t0 + 100) == .answered(ok("a1")))  // an answer beats the deadline
        #expect(retry.attempts == 1)
    }

    @Test func repeatsWithTheSameIDUntilAnswered() {
        var retry = ActionRetry(id: "a1", sentAt: t0, policy: policy)
        #expect(retry.next(at: t0 + 1.9) == .wait(until: t0 + 2))
        #expect(retry.next(at: t0 + 2) == .publish(attempt: 2))
        #expect(retry.next(at: t0 + 2) == .wait(until: t0 + 4))
        #expect(retry.next(at: t0 + 4.1) == .publish(attempt: 3))
        let refused = ActionResult(id: "a1", ok: false, error: .wrongPIN)
        #expect(take(&retry, .result(refused)))
        #expect(take(&retry, ok("a1")))  // the answer to a repeat: the first answer stands
        #expect(retry.next(at: t0 + 5) == .answered(.result(refused)))
    }

    @Test func answersToOtherActionsAreNotOurs() {
        var retry = ActionRetry(id: "a1", sentAt: t0, policy: policy)
        #expect(!take(&retry, ok("a2")))
        #expect(!take(&retry, ok(nil)))  // a cry for help that came without an id
        // A refused reply that happens to carry the same id is about the reply, not the action.
        #expect(!take(&retry, .refused(InputRefusal(kind: .reply, reason: "empty_text", id: "a1"))))
        #expect(retry.next(at: t0 + 1) == .wait(until: t0 + 2))
        let refusal = ActionAnswer.refused(InputRefusal(kind: .action, reason: "malformed", id: "a1"))
        #expect(take(&retry, refusal))
        #expect(retry.next(at: t0 + 1) == .answered(refusal))
    }

    @Test func aLateWakeUpRepeatsOnceNotInABurst() {
        var retry = ActionRetry(id: "a1", sentAt: t0, policy: ActionRepeat(every: 2, giveUpAfter: 60))
        #expect(retry.next(at: t0 + 9) == .publish(attempt: 2))
        #expect(retry.next(at: t0 + 9) == .wait(until: t0 + 11))
    }

    @Test func givesUpAtTheDeadlineRatherThanRepeating() {
        var retry = ActionRetry(id: "a1", sentAt: t0, policy: ActionRepeat(every: 2, giveUpAfter: 6))
        #expect(retry.next(at: t0 + 2) == .publish(attempt: 2))
        #expect(retry.next(at: t0 + 4) == .publish(attempt: 3))
        #expect(retry.next(at: t0 + 5.99) == .wait(until: t0 + 6))
        #expect(retry.next(at: t0 + 6) == .gaveUp(attempts: 3))
    }

    @Test func theWaitNeverRunsPastTheDeadline() {
        var retry = ActionRetry(id: "a1", sentAt: t0, policy: ActionRepeat(every: 4, giveUpAfter: 6))
        #expect(retry.next(at: t0 + 4) == .publish(attempt: 2))
        #expect(retry.next(at: t0 + 4.5) == .wait(until: t0 + 6))
        #expect(retry.next(at: t0 + 6) == .gaveUp(attempts: 2))
    }
}

@Suite struct ActionAnswersTests {
    let start = Action(id: "a1", kind: .start)

    @Test func reportsTheFirstAnswerToOurActionsOnly() async {
        let answers = ActionAnswers()
        answers.expect(start)
        let first = ActionAnswer.result(ActionResult(id: "a1", ok: true))
        #expect(answers.deliver(first) == start)
        #expect(answers.deliver(first) == nil)  // the answer to a repeat
        #expect(answers.deliver(.result(ActionResult(id: "zz", ok: true))) == nil)
        #expect(answers.deliver(.result(ActionResult(id: nil, ok: true))) == nil)
        #expect(await answers.answer(for: "a1") == first)  // kept until forgotten
        answers.forget("a1")
        #expect(await answers.answer(for: "a1") == nil)
    }

    @Test func aWaiterIsWokenByTheAnswerOrByForget() async {
        let answers = ActionAnswers()
        answers.expect(start)
        answers.expect(Action(id: "a2", kind: .stop))
        let waiting = Task { await answers.answer(for: "a1") }
        let forgotten = Task { await answers.answer(for: "a2") }
        let answer = ActionAnswer.result(ActionResult(id: "a1", ok: false, error: .pinRequired))
        // Delivered until the waiter has parked: a delivery before it parks is kept, too.
        answers.deliver(answer)
        #expect(await waiting.value == answer)
        answers.forget("a2")
        #expect(await forgotten.value == nil)
    }

    @Test func cancellingAWaiterReturnsNil() async {
        let answers = ActionAnswers()
        answers.expect(start)
        let waiting = Task { await answers.answer(for: "a1") }
        waiting.cancel()
        #expect(await waiting.value == nil)
    }

    @Test func remembersABoundedNumberOfActions() {
        let answers = ActionAnswers(capacity: 2)
        for id in ["h1", "h2", "h3"] { answers.expect(Action(id: id, kind: .holding)) }
        #expect(answers.deliver(.result(ActionResult(id: "h1", ok: true))) == nil)  // dropped
        #expect(answers.deliver(.result(ActionResult(id: "h3", ok: true)))?.id == "h3")
    }
}
