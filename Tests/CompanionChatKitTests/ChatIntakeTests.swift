import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Testing

@testable import CompanionChatKit

@Suite struct ChatIntakeTests {
    func decode(_ message: MQTTMessage, limits: ChatIntake.Limits = .init()) -> Result<
        (WalkerID, ChatEvent), ChatIntake.Rejected
    > {
        ChatIntake.decode(message, prefix: Fixture.prefix, limits: limits)
    }

    func reason(_ message: MQTTMessage, limits: ChatIntake.Limits = .init()) -> String? {
        if case .failure(let rejected) = decode(message, limits: limits) { return rejected.reason }
        return nil
    }

    @Test func aValidReplyAndPromptAreAccepted() throws {
        let (walker, event) = try decode(Fixture.reply("alice", "  all good  ")).get()
        #expect(walker.rawValue == "alice")
        #expect(event == .reply(Reply(text: "all good", tst: 1_700_000_000)))
        let (_, prompt) = try decode(Fixture.prompt("alice", id: "p1")).get()
        #expect(prompt == .prompt(CheckInPrompt(id: "p1", at: 1_700_000_000, replyBy: 1_700_000_120)))
    }

    @Test func anInvalidWalkerIDIsRejectedAsATopicProblem() {
        let result = decode(Fixture.raw("safewalk/al.ice/reply", #"{"v":1,"text":"hi","tst":1}"#))
        guard case .failure(let rejected) = result else { Issue.record("accepted"); return }
        #expect(rejected == ChatIntake.Rejected(reason: "invalid_topic", topicKind: .reply, walker: nil))
    }

    @Test func payloadProblemsUseThePayloadErrorCodes() {
        let topic = "safewalk/alice/reply"
        #expect(reason(Fixture.raw(topic, "not json")) == "malformed")
        #expect(reason(Fixture.raw(topic, #"{"text":"hi","tst":1}"#)) == "missing_version")
        #expect(reason(Fixture.raw(topic, #"{"v":2,"text":"hi","tst":1}"#)) == "unsupported_version")
        #expect(reason(Fixture.raw(topic, #"{"v":1,"tst":1}"#)) == "missing_field")
        #expect(reason(Fixture.raw(topic, #"{"v":1,"text":7,"tst":1}"#)) == "wrong_type")
        #expect(reason(Fixture.raw("safewalk/alice/prompt", #"{"v":1,"id":"x","at":1}"#)) == "missing_field")
    }

    @Test func sizeLimitsApplyToThePayloadAndTheText() {
        let long = String(repeating: "a", count: 1001)
        #expect(reason(Fixture.reply("alice", long)) == "text_too_long")
        #expect(reason(Fixture.reply("alice", long), limits: .init(maxPayloadBytes: 100)) == "too_large")
        #expect(reason(Fixture.reply("alice", String(repeating: "é", count: 1000))) == nil)
    }

    @Test func emptyOrControlOnlyTextIsRejectedAndControlCharactersAreCleaned() throws {
        #expect(reason(Fixture.reply("alice", " \n\t ")) == "empty_text")
        #expect(reason(Fixture.reply("alice", "\u{0}\u{7}")) == "empty_text")
        let (_, event) = try decode(Fixture.reply("alice", "hi\u{1B}[31mthere\nok")).get()
        #expect(event == .reply(Reply(text: "hi [31mthere\nok", tst: 1_700_000_000)))
    }

    @Test func retainedInputIsRejectedSoARestartDoesNotReplayIt() {
        var message = Fixture.reply("alice", "hi")
        message.retain = true
        #expect(reason(message) == "retained")
    }

    @Test func anOverlongPromptIDIsRejected() {
        #expect(reason(Fixture.prompt("alice", id: String(repeating: "x", count: 129))) == "invalid_prompt_id")
        #expect(reason(Fixture.prompt("alice", id: "")) == "invalid_prompt_id")
    }
}

@Suite struct WalkerLanesTests {
    let alice = Fixture.walker("alice")
    let bob = Fixture.walker("bob")
    func event(_ text: String) -> ChatEvent { .reply(Reply(text: text, tst: 0)) }

    @Test func theFirstEventStartsAWorkerAndLaterOnesQueueBehindIt() throws {
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: 10, maxTurns: 4)
        #expect(lanes.enqueue(event("1"), for: alice) == .startWorker)
        #expect(lanes.enqueue(event("2"), for: alice) == .queued)
        #expect(lanes.enqueue(event("x"), for: bob) == .startWorker)
        let (first, conversation) = try #require(lanes.next(for: alice))
        #expect(first == event("1"))
        lanes.finish(conversation, for: alice)
        #expect(lanes.next(for: alice)?.0 == event("2"))
    }

    @Test func anEmptyQueueEndsTheWorkerAndTheNextEventStartsANewOne() throws {
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: 10, maxTurns: 4)
        _ = lanes.enqueue(event("1"), for: alice)
        let (_, conversation) = try #require(lanes.next(for: alice))
        lanes.finish(conversation, for: alice)
        #expect(lanes.next(for: alice) == nil)
        #expect(lanes.enqueue(event("2"), for: alice) == .startWorker)
    }

    @Test func theQueueIsBounded() {
        let lanes = WalkerLanes(queueLimit: 2, maxWalkers: 10, maxTurns: 4)
        #expect(lanes.enqueue(event("1"), for: alice) == .startWorker)
        #expect(lanes.enqueue(event("2"), for: alice) == .queued)
        #expect(lanes.enqueue(event("3"), for: alice) == .full)
        #expect(lanes.enqueue(event("3"), for: bob) == .startWorker)
    }

    @Test func theConversationSurvivesBetweenWorkers() throws {
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: 10, maxTurns: 4)
        _ = lanes.enqueue(event("hello"), for: alice)
        var (step, conversation) = try #require(lanes.next(for: alice))
        _ = conversation.step(for: step)
        lanes.finish(conversation, for: alice)
        _ = lanes.next(for: alice)
        _ = lanes.enqueue(event("again"), for: alice)
        (step, conversation) = try #require(lanes.next(for: alice))
        #expect(conversation.history.turns == [ChatTurn(.walker, "hello")])
    }

    @Test func pastTheWalkerLimitTheLeastRecentlyUsedIdleLaneIsForgottenNeverABusyOne() throws {
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: 2, maxTurns: 4)
        let carol = Fixture.walker("carol")
        _ = lanes.enqueue(event("busy"), for: alice)  // alice stays busy (never drained)
        _ = lanes.enqueue(event("1"), for: bob)
        let (_, conversation) = try #require(lanes.next(for: bob))
        lanes.finish(conversation, for: bob)
        _ = lanes.next(for: bob)  // bob idle
        _ = lanes.enqueue(event("1"), for: carol)
        #expect(lanes.walkerCount == 2)
        #expect(lanes.enqueue(event("more"), for: alice) == .queued)  // alice kept, still busy
    }

    @Test func pastTheWalkerLimitEachNewWalkerForgetsExactlyTheLeastRecentlyUsedIdleLane() throws {
        let limit = 50
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: limit, maxTurns: 4)
        func use(_ n: Int) throws {
            let walker = Fixture.walker("w\(n)")
            _ = lanes.enqueue(event("hi"), for: walker)
            var (step, conversation) = try #require(lanes.next(for: walker))
            _ = conversation.step(for: step)
            lanes.finish(conversation, for: walker)
            _ = lanes.next(for: walker)  // idle again
        }
        for n in 0..<limit { try use(n) }
        try use(0)  // w0 is now the most recently used; w1 the least
        for n in limit..<(limit + 10) { try use(n) }  // ten new walkers evict w1...w10
        #expect(lanes.walkerCount == limit)
        // A forgotten walker starts over with no history; a kept one (w0, w11) remembers.
        _ = lanes.enqueue(event("again"), for: Fixture.walker("w1"))
        #expect(try #require(lanes.next(for: Fixture.walker("w1"))).1.history.turns.isEmpty)
        _ = lanes.enqueue(event("again"), for: Fixture.walker("w0"))
        #expect(try #require(lanes.next(for: Fixture.walker("w0"))).1.history.turns.isEmpty == false)
    }
}
