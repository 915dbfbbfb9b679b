import SafeWalkWebKit
import Testing

@Suite struct SMSAcknowledgementTests {
    @Test(arguments: ["OK", "ok", " Ok. ", "okay!", "1", "On it", "on  it", "I'm on it", "I’m on it!", "im on it"])
    func theAcknowledgingWordsAreReadHoweverTheyAreTyped(reply: String) {
        #expect(SMSAcknowledgement(reply: reply) == SMSAcknowledgement(reply: "ok"))
        #expect(SMSAcknowledgement(reply: reply)?.code == nil)
    }

    @Test(arguments: [("OK 4821", "4821"), ("ok, 0007", "0007"), ("1 4821", "4821"), ("on it 4821!", "4821")])
    func aShortCodePicksTheIncident(reply: String, code: String) {
        #expect(SMSAcknowledgement(reply: reply)?.code == code)
    }

    /// Only a clear "I'm on it" may stop a ladder: everything else is a message, not an answer.
    @Test(arguments: [
        "", "no", "not ok", "ok?", "OK 48", "OK 48210", "OK abcd", "OK ٤٨٢١", "2", "11", "okay then", "on it later",
        "STOP", "who is this", "ok ok",
    ])
    func anythingElseIsNotAnAcknowledgement(reply: String) {
        #expect(SMSAcknowledgement(reply: reply) == nil)
    }
}
