import SafeWalkCore
import Testing

@Suite struct QuickReplyTests {
    @Test func theCatalogueHasTheFourRepliesInOrder() {
        let texts = QuickReply.catalogue.map(\.text)
        #expect(texts == ["I'm okay 👍", "Almost home", "Feeling nervous", "I need help 🚨"])
    }

    @Test func everyReplyHasItsOwnFixedAnswer() {
        let answers = QuickReply.catalogue.map(\.answer)
        #expect(Set(answers).count == 4)
        #expect(answers.allSatisfy { !$0.isEmpty })
    }

    @Test func iNeedHelpEscalatesAtOnce() {
        #expect(QuickReply.lookup("I need help 🚨")?.effect == .escalate(.needHelp))
    }

    @Test func okayAndAlmostHomeAnswerTheCheckIn() {
        #expect(QuickReply.lookup("I'm okay 👍")?.effect == .answersCheckIn)
        #expect(QuickReply.lookup("Almost home")?.effect == .answersCheckIn)
    }

    @Test func feelingNervousAnswersButFlagsConcernAndSilencesNothing() {
        let nervous = QuickReply.lookup("Feeling nervous")
        #expect(nervous?.effect == .answersCheckInWithConcern)
        #expect(nervous?.effect != .answersCheckIn)
        #expect(nervous?.answer.contains("I need help") == true)
    }

    @Test(arguments: ["  I'm okay 👍\n", "\tAlmost home ", "Feeling nervous  "])
    func surroundingWhitespaceIsTolerated(text: String) {
        #expect(QuickReply.lookup(text) != nil)
    }

    @Test func emojiVariationSelectorsAreTolerated() {
        #expect(QuickReply.lookup("I'm okay 👍\u{FE0F}") == .okay)
        #expect(QuickReply.lookup("I need help 🚨\u{FE0F}") == .needHelp)
        #expect(QuickReply.lookup("I need help 🚨\u{FE0E}") == .needHelp)
    }

    @Test func skinTonesAndTypographicApostrophesAreTolerated() {
        #expect(QuickReply.lookup("I’m okay 👍🏽") == .okay)
        #expect(QuickReply.lookup("i'm OKAY 👍") == .okay)
    }

    @Test(arguments: ["I need help", "i need help!", "I need help!!! 🚨🚨", "I  need   help.", "🚨 I need help"])
    func aTypedINeedHelpStillEscalates(text: String) {
        #expect(QuickReply.lookup(text)?.effect == .escalate(.needHelp))
    }

    @Test(arguments: [
        "", "🚨", "!!!", "I'm okay, just slow", "help me move a couch", "Almost", "I need help with homework 🚨",
        "Im okay",
    ])
    func freeTextIsNotAQuickReply(text: String) {
        #expect(QuickReply.lookup(text) == nil)
    }
}
