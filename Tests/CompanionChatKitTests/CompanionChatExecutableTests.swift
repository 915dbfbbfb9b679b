import CompanionChatKit
import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `companion-chat` executable, a real Mosquitto and the fake Gemini on loopback.
@Suite(.holdsResources) struct CompanionChatExecutableTests {
    struct Stack {
        let broker: MosquittoBroker
        let fake: FakeGeminiServer
        let process: ChildProcess
        let client: MQTTClient
        let chat: MQTTSubscription

        func send(_ message: MQTTMessage) async throws { try await client.publish(message) }
        func nextChat() async throws -> ChatMessage {
            try Fixture.chat(try #require(await chat.first(1, within: 15).first))
        }
    }

    func withStack(apiKey: Bool, _ body: (Stack) async throws -> Void) async throws {
        let broker = try await MosquittoBroker.start()
        let fake = try await FakeGeminiServer.start()
        var environment = [
            "SAFEWALK_MQTT_PORT": "\(broker.port)", "SAFEWALK_DATA_DIR": broker.directory.path,
            "SAFEWALK_GEMINI_BASE_URL": fake.baseURL, "SAFEWALK_GEMINI_TIMEOUT": "5", "SAFEWALK_LOG_LEVEL": "debug",
            "SAFEWALK_METRICS_PORT": "off",
        ]
        if apiKey { environment["GEMINI_API_KEY"] = fake.apiKey }
        let client = try await broker.client()
        let online = try await client.subscribe("safewalk/_service/companion-chat", qos: .atLeastOnce)
        let chat = try await client.subscribe("safewalk/+/chat", qos: .atLeastOnce)
        let process = try ChildProcess(
            try Executables.product("companion-chat").path, [], environment: environment,
            logFile: broker.directory.appendingPathComponent("companion-chat.log"))
        let stack = Stack(broker: broker, fake: fake, process: process, client: client, chat: chat)
        do {
            let status = try await online.first(1, within: 15)
            #expect(status.first?.string == "online")
            try await body(stack)
            process.signal(SIGTERM)
            #expect(try await process.waitForExit(within: 10) == 0, "\(process.output)")
            #expect(!process.output.contains(fake.apiKey), "the API key must never be logged")
        } catch {
            process.signal(SIGKILL)
            _ = try? await process.waitForExit(within: 5)
            Issue.record("companion-chat log:\n\(process.output)")
            await client.shutdown()
            await fake.shutdown()
            await broker.shutdown()
            throw error
        }
        await client.shutdown()
        await fake.shutdown()
        await broker.shutdown()
    }

    @Test func promptQuickReplyAndFreeTextThroughTheRealService() async throws {
        try await withStack(apiKey: true) { stack in
            try await stack.send(Fixture.prompt("alice"))
            let checkIn = try await stack.nextChat()
            #expect(checkIn.text == CompanionText.checkIns[0])
            #expect(checkIn.isUser == false)

            try await stack.send(Fixture.reply("alice", QuickReply.okay.text, quick: true))
            #expect(try await stack.nextChat().text == QuickReply.okay.answer)
            #expect(stack.fake.requests.isEmpty, "a quick reply must not reach Gemini")

            stack.fake.script(.answer("Glad you're moving. I'm right here if you want to chat."))
            try await stack.send(Fixture.reply("alice", "just passed the library"))
            #expect(try await stack.nextChat().text == "Glad you're moving. I'm right here if you want to chat.")
            let request = try #require(stack.fake.requests.first)
            #expect(stack.fake.requests.count == 1)
            #expect(request.headers["x-goog-api-key"] == stack.fake.apiKey)
            let contents = try #require(request.json()?["contents"] as? [[String: Any]])
            #expect(contents.map { $0["role"] as? String } == ["user", "model", "user"])
        }
    }

    @Test func withoutAnAPIKeyFreeTextGetsACannedAnswerAndNothingIsSent() async throws {
        try await withStack(apiKey: false) { stack in
            try await stack.send(Fixture.reply("bob", "is anyone there?"))
            #expect(try await stack.nextChat().text == CompanionText.fallbacks[0])
            try await stack.send(Fixture.reply("bob", QuickReply.needHelp.text, quick: true))
            #expect(try await stack.nextChat().text == QuickReply.needHelp.answer)
            #expect(stack.fake.requests.isEmpty)
        }
    }
}
