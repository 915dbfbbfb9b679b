import CompanionChatKit
import SafeWalkCore
import Testing

@Suite struct WalkerConversationTests {
    func prompt(_ id: String) -> ChatEvent { .prompt(CheckInPrompt(id: id, at: 0, replyBy: 120)) }
    func reply(_ text: String) -> ChatEvent { .reply(Reply(text: text, tst: 0)) }

    @Test func aPromptGetsAWarmCheckInThatVaries() {
        var conversation = WalkerConversation(maxTurns: 12)
        #expect(conversation.step(for: prompt("a")) == .say("Just checking in! Reply if you're okay.", .checkIn))
        guard case .say(let second, .checkIn) = conversation.step(for: prompt("b")) else {
            Issue.record("no check-in"); return
        }
        #expect(second != "Just checking in! Reply if you're okay.")
        #expect(CompanionText.checkIns.contains(second))
    }

    @Test func aRedeliveredPromptIsAnsweredOnce() {
        var conversation = WalkerConversation(maxTurns: 12)
        _ = conversation.step(for: prompt("a"))
        #expect(conversation.step(for: prompt("a")) == .duplicate)
    }

    @Test(arguments: QuickReply.catalogue)
    func aQuickReplyGetsItsCatalogueAnswerWithoutTheModel(quick: QuickReply) {
        var conversation = WalkerConversation(maxTurns: 12)
        #expect(conversation.step(for: reply(quick.text)) == .say(quick.answer, .quickReply))
    }

    @Test func aTypedQuickReplyIsRecognisedLikeTheChip() {
        var conversation = WalkerConversation(maxTurns: 12)
        #expect(conversation.step(for: reply("i need help!")) == .say(QuickReply.needHelp.answer, .quickReply))
    }

    @Test func freeTextAsksTheModelWithTheConversationSoFar() {
        var conversation = WalkerConversation(maxTurns: 12)
        _ = conversation.step(for: prompt("a"))
        _ = conversation.step(for: reply(QuickReply.okay.text))
        let step = conversation.step(for: reply("someone is walking behind me"))
        #expect(
            step
                == .askModel([
                    ChatTurn(.companion, CompanionText.checkIns[0]), ChatTurn(.walker, QuickReply.okay.text),
                    ChatTurn(.companion, QuickReply.okay.answer), ChatTurn(.walker, "someone is walking behind me"),
                ]))
        let answer = conversation.answered("Head toward the lit shops.")
        #expect(answer.text == "Head toward the lit shops." && answer.kind == .model)
        #expect(conversation.history.turns.last == ChatTurn(.companion, "Head toward the lit shops."))
    }

    @Test func theHistoryIsBounded() {
        var conversation = WalkerConversation(maxTurns: 4)
        for index in 0..<10 {
            _ = conversation.step(for: reply("line \(index)"))
            _ = conversation.answered("answer \(index)")
        }
        #expect(
            conversation.history.turns == [
                ChatTurn(.walker, "line 8"), ChatTurn(.companion, "answer 8"),
                ChatTurn(.walker, "line 9"), ChatTurn(.companion, "answer 9"),
            ])
    }

    @Test func withoutAModelAnswerTheWalkerGetsAKindCannedOneThatPointsToHelp() {
        var conversation = WalkerConversation(maxTurns: 12)
        _ = conversation.step(for: reply("hello?"))
        let first = conversation.answered(nil)
        _ = conversation.step(for: reply("hello??"))
        let second = conversation.answered(nil)
        #expect(first.kind == .fallback && second.kind == .fallback)
        #expect(first.text != second.text)
        for text in CompanionText.fallbacks { #expect(text.contains(QuickReply.needHelp.text)) }
    }
}
