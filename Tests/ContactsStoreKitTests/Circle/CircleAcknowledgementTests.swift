import SafeWalkCore
import Testing

@testable import ContactsStoreKit

/// "I'm on it" in the app is answered from the notifier's answer: "done" only once the ladder has it.
@Suite struct CircleAcknowledgementTests {
    let asked = CircleResult(id: "k1", op: "ack", ok: true)

    @Test func theLadderHasItSoItIsDone() {
        let result = AcknowledgementResult(id: "x", ok: true, walker: user("alice"), incident: "inc-1", by: "bob")
        let answer = CircleAcknowledgement.answer(to: asked, of: user("alice"), from: result)
        #expect(answer.ok && answer.error == nil && answer.id == "k1" && answer.op == "ack")
    }

    @Test func anOverAlertSaysSo() {
        let result = AcknowledgementResult(id: "x", ok: false, error: .closed)
        let answer = CircleAcknowledgement.answer(to: asked, of: user("alice"), from: result)
        #expect(!answer.ok)
        #expect(answer.error?.code == .noOpenIncident)
        #expect(answer.error?.message == "alice is safe: the alert is over.")
    }

    @Test func anAlertNotYetOnTheLadderAsksToTryAgain() {
        let result = AcknowledgementResult(id: "x", ok: false, error: .unknownRecipient)
        let answer = CircleAcknowledgement.answer(to: asked, of: user("alice"), from: result)
        #expect(!answer.ok)
        #expect(answer.error?.message.contains("try again") == true)
    }
}
