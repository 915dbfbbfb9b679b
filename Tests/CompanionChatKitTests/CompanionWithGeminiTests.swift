import AsyncHTTPClient
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import CompanionChatKit

/// The service with the production GeminiClient against the fake Gemini: what the walker sees
/// when Google misbehaves.
@Suite struct CompanionWithGeminiTests {
    func withStack(
        timeout: Duration = .seconds(10),
        _ body:
            @escaping @Sendable (
                FakeGeminiServer, ManualClock, InMemoryMessageBus, MQTTSubscription, CompanionChatService
            ) async throws -> Void
    )
        async throws
    {
        let fake = try await FakeGeminiServer.start()
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let clock = ManualClock()
        let settings = Fixture.settings(timeout: timeout, key: fake.apiKey, baseURL: fake.baseURL)
        let model = GeminiClient(
            http: http, configuration: settings.gemini, clock: clock, logger: Logger(label: "test.gemini"))
        let bus = InMemoryMessageBus()
        let chat = try await bus.subscribe("safewalk/+/chat", qos: .atLeastOnce)
        let service = try await CompanionChatService.subscribe(
            bus: bus, prefix: Fixture.prefix, model: model, settings: settings, logger: Logger(label: "test.chat"))
        let task = Task { await service.run() }
        let outcome: Result<Void, any Error>
        do {
            try await withTimeout(20, "companion with gemini") { try await body(fake, clock, bus, chat, service) }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        task.cancel()
        await task.value
        try? await http.shutdown()
        await fake.shutdown()
        try outcome.get()
    }

    @Test func theFakeGeminisAnswerReachesTheWalker() async throws {
        try await withStack { fake, _, bus, chat, _ in
            fake.script(.answer("Walking with you. Stay where it's bright."))
            try await bus.publish(Fixture.reply("alice", "it's so dark here"))
            #expect(
                try Fixture.chat(try #require(await chat.first(1).first)).text
                    == "Walking with you. Stay where it's bright.")
        }
    }

    @Test func failingTwiceGivesTheWalkerACannedAnswer() async throws {
        try await withStack { fake, _, bus, chat, service in
            fake.script(.fail(500), .fail(503))
            try await bus.publish(Fixture.reply("alice", "talk to me"))
            #expect(try Fixture.chat(try #require(await chat.first(1).first)).text == CompanionText.fallbacks[0])
            #expect(fake.requests.count == 2)
            #expect(service.stats.modelFailures == ["server_error": 1])
        }
    }

    @Test func aHangingGeminiStillAnswersTheWalkerWhenTheTimeoutPasses() async throws {
        try await withStack(timeout: .seconds(4)) { fake, clock, bus, chat, service in
            fake.script(.hang)
            try await bus.publish(Fixture.reply("alice", "hello?"))
            await fake.waitForRequests(1)
            await clock.advance(by: .seconds(4))
            #expect(try Fixture.chat(try #require(await chat.first(1).first)).text == CompanionText.fallbacks[0])
            #expect(service.stats.modelFailures == ["timed_out": 1])
        }
    }

    @Test func aSafetyBlockAndMalformedJSONBothEndInCannedAnswers() async throws {
        try await withStack { fake, _, bus, chat, service in
            fake.script(.blockedCandidate("SAFETY"), .malformed)
            try await bus.publish(Fixture.reply("alice", "first"))
            _ = try await chat.first(1)
            try await bus.publish(Fixture.reply("alice", "second"))
            #expect(try Fixture.chat(try #require(await chat.first(1).first)).text == CompanionText.fallbacks[1])
            #expect(service.stats.modelFailures == ["blocked": 1, "malformed": 1])
            #expect(fake.requests.count == 2)
        }
    }
}
