import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import CompanionChatKit

/// Companion K of N on a cluster whose nodes route each walker's prompts and replies to one
/// partition: it reads only the `/K` forms. The in-memory bus maps nothing, so the test publishes
/// the routed forms itself, as `safewalk nats-mappings` makes NATS do.
@Suite struct CompanionPartitionTests {
    @Test func companionKAnswersOnlyThePromptsAndRepliesRoutedToK() async throws {
        let bus = InMemoryMessageBus()
        let chat = try await bus.subscribe("safewalk/+/chat", qos: .atLeastOnce)
        var settings = Fixture.settings()
        settings.partition = WalkerPartition(index: 1, count: 2)
        let service = try await CompanionChatService.subscribe(
            bus: bus, prefix: Fixture.prefix, model: ScriptedModel(), settings: settings,
            logger: Logger(label: "test.chat"), now: { 1_700_000_500 })
        let task = Task { await service.run() }
        defer { task.cancel() }
        // Partition 0's prompt, and one unrouted (one companion's form): neither is read here.
        for message in [Fixture.prompt("bob"), Fixture.prompt("carol")] {
            try await bus.publish(MQTTMessage(topic: message.topic + "/0", payload: message.payload))
        }
        try await bus.publish(Fixture.prompt("dave"))
        // Partition 1's prompt and reply are answered. The reply goes once the prompt's message
        // is out, as a phone's would: prompts and replies come on two subscriptions, whose order
        // between them nothing promises (a loaded run once answered the reply first).
        let prompt = Fixture.prompt("alice")
        try await bus.publish(MQTTMessage(topic: prompt.topic + "/1", payload: prompt.payload))
        var answers = try await chat.first(1, within: 10)
        let reply = Fixture.reply("alice", QuickReply.nervous.text, quick: true)
        try await bus.publish(MQTTMessage(topic: reply.topic + "/1", payload: reply.payload))
        answers += try await chat.first(1, within: 10)
        #expect(answers.map(\.topic) == ["safewalk/alice/chat", "safewalk/alice/chat"])
        #expect(try Fixture.chat(answers[1]).text == QuickReply.nervous.answer)
        // Everything published on the bus so far has been seen: nothing for bob, carol or dave.
        #expect(bus.published(matching: "safewalk/+/chat").count == 2)
        #expect(service.stats.messages(.checkIn) == 1)
    }
}
