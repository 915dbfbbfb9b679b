import AsyncHTTPClient
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import CompanionChatKit

/// The service over an in-memory bus: validation, ordering, independence of walkers, and the
/// canned answer whenever the model fails.
@Suite struct CompanionChatServiceTests {
    struct Running {
        let bus: InMemoryMessageBus
        let service: CompanionChatService
        let chat: MQTTSubscription
        let rejected: MQTTSubscription

        func send(_ messages: MQTTMessage...) async throws {
            for message in messages { try await bus.publish(message) }
        }

        func next(_ count: Int = 1) async throws -> [(topic: String, message: ChatMessage)] {
            try await chat.first(count, within: 10).map { ($0.topic, try Fixture.chat($0)) }
        }
    }

    func withService(
        model: any ChatModel, settings: CompanionChatSettings = Fixture.settings(),
        _ body: @escaping @Sendable (Running) async throws -> Void
    ) async throws {
        let bus = InMemoryMessageBus()
        let chat = try await bus.subscribe("safewalk/+/chat", qos: .atLeastOnce)
        let rejected = try await bus.subscribe("safewalk/_rejected/+", qos: .atMostOnce)
        let service = try await CompanionChatService.subscribe(
            bus: bus, prefix: Fixture.prefix, model: model, settings: settings,
            logger: Logger(label: "test.chat"), now: { 1_700_000_500 })
        let task = Task { await service.run() }
        defer { task.cancel() }
        let running = Running(bus: bus, service: service, chat: chat, rejected: rejected)
        try await withTimeout(20, "companion chat service test") { try await body(running) }
    }

    @Test func aPromptGetsACheckInOnTheWalkersChatTopic() async throws {
        try await withService(model: ScriptedModel()) { run in
            try await run.send(Fixture.prompt("alice"))
            let (topic, message) = try #require(try await run.next().first)
            #expect(topic == "safewalk/alice/chat")
            #expect(message.text == CompanionText.checkIns[0])
            #expect(message.isUser == false)
            #expect(message.tst == 1_700_000_500)
            #expect(UUID(uuidString: message.id) != nil)
            let raw = try #require(run.bus.published(matching: "safewalk/alice/chat").first)
            let json = try #require(try JSONSerialization.jsonObject(with: raw.payload) as? [String: Any])
            #expect(Set(json.keys) == ["v", "id", "text", "isUser", "tst"])
            #expect(run.service.stats.messages(.checkIn) == 1)
        }
    }

    @Test func aQuickReplyIsAnsweredFromTheCatalogueWithoutCallingTheModel() async throws {
        let model = ScriptedModel()
        try await withService(model: model) { run in
            try await run.send(Fixture.reply("alice", QuickReply.nervous.text, quick: true))
            #expect(try await run.next().first?.message.text == QuickReply.nervous.answer)
            #expect(model.calls.isEmpty)
        }
    }

    @Test func freeTextIsAnsweredByTheModelWithTheConversation() async throws {
        let model = ScriptedModel { "model says hi to: \($0)" }
        try await withService(model: model) { run in
            try await run.send(Fixture.prompt("alice"))
            _ = try await run.next()
            try await run.send(Fixture.reply("alice", "bit cold out here"))
            #expect(try await run.next().first?.message.text == "model says hi to: bit cold out here")
            #expect(
                model.calls == [
                    [ChatTurn(.companion, CompanionText.checkIns[0]), ChatTurn(.walker, "bit cold out here")]
                ])
            #expect(run.service.stats.messages(.model) == 1)
        }
    }

    @Test(arguments: [
        ChatModelError.noKey, .offline("refused"), .timedOut, .rateLimited(retryAfter: nil),
        .serverError(code: 500, status: "INTERNAL", message: nil), .blocked(reason: "SAFETY"), .malformed("x"),
    ])
    func whenTheModelFailsTheWalkerStillGetsAKindAnswerAndTheFailureIsCounted(error: ChatModelError) async throws {
        let model = ScriptedModel()
        model.fail(error)
        try await withService(model: model) { run in
            try await run.send(Fixture.reply("alice", "anyone there?"))
            #expect(try await run.next().first?.message.text == CompanionText.fallbacks[0])
            #expect(run.service.stats.modelFailures == [error.code: 1])
            #expect(run.service.stats.messages(.fallback) == 1)
        }
    }

    @Test func aSlowModelCallForOneWalkerDoesNotDelayAnother() async throws {
        let model = ScriptedModel()
        model.hold("tell me a story")
        try await withService(model: model) { run in
            try await run.send(Fixture.reply("alice", "tell me a story"))
            await model.waitForCalls(1)
            try await run.send(Fixture.reply("bob", "hello"), Fixture.prompt("carol"))
            let others = try await run.next(2)
            #expect(Set(others.map(\.topic)) == ["safewalk/bob/chat", "safewalk/carol/chat"])
            model.release("tell me a story")
            #expect(try await run.next().first?.topic == "safewalk/alice/chat")
        }
    }

    @Test func eachWalkersEventsAreAnsweredInTheOrderTheyArrived() async throws {
        let model = ScriptedModel()
        model.hold("first")
        try await withService(model: model) { run in
            try await run.send(Fixture.reply("alice", "first"))
            await model.waitForCalls(1)
            // Replies only: prompts come from another publisher on another topic, so no order
            // exists between a prompt and a reply.
            try await run.send(
                Fixture.reply("alice", QuickReply.okay.text), Fixture.reply("alice", "third"),
                Fixture.reply("alice", QuickReply.almostHome.text))
            model.release("first")
            let texts = try await run.next(4).map(\.message.text)
            #expect(texts == ["model: first", QuickReply.okay.answer, "model: third", QuickReply.almostHome.answer])
        }
    }

    @Test func badInputIsRejectedCountedAndReportedWithoutStoppingOthers() async throws {
        try await withService(model: ScriptedModel()) { run in
            try await run.send(
                Fixture.raw("safewalk/alice/reply", "{not json"),
                Fixture.raw("safewalk/bad.id/reply", #"{"v":1,"text":"hi","tst":1}"#),
                Fixture.raw("safewalk/alice/prompt", #"{"v":1,"id":"p"}"#),
                Fixture.reply("alice", String(repeating: "x", count: 5000)),
                Fixture.reply("bob", QuickReply.okay.text))
            #expect(try await run.next().first?.topic == "safewalk/bob/chat")
            let reports = try await run.rejected.first(4).map {
                try SafeWalkJSON.decode(Rejection.self, from: $0.payload)
            }
            #expect(reports.map(\.reason).sorted() == ["invalid_topic", "malformed", "missing_field", "text_too_long"])
            #expect(reports.allSatisfy { $0.service == .companionChat })
            #expect(run.service.reporter.total == 4)
        }
    }

    @Test func aWalkerFloodingTheQueueIsRejectedPastTheLimit() async throws {
        let model = ScriptedModel()
        model.hold("slow")
        try await withService(model: model, settings: Fixture.settings(queueLimit: 2)) { run in
            try await run.send(Fixture.reply("alice", "slow"))
            await model.waitForCalls(1)
            try await run.send(Fixture.reply("alice", "a"), Fixture.reply("alice", "b"), Fixture.reply("alice", "c"))
            let report = try #require(try await run.rejected.first(1).first)
            #expect(try SafeWalkJSON.decode(Rejection.self, from: report.payload).reason == "queue_full")
            model.release("slow")
            #expect(try await run.next(3).map(\.message.text) == ["model: slow", "model: a", "model: b"])
        }
    }
}
