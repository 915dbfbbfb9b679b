import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import CompanionChatKit

/// companion-chat's part of deleting an account: the walker's conversation, queue and usage go;
/// other walkers keep theirs.
@Suite struct ChatErasureTests {
    let alice = Fixture.walker("alice")
    let bob = Fixture.walker("bob")
    func event(_ text: String) -> ChatEvent { .reply(Reply(text: text, tst: 0)) }

    @Test func erasingAWalkerForgetsTheirConversationAndLeavesOthersAlone() async throws {
        let bus = InMemoryMessageBus()
        let chat = try await bus.subscribe("safewalk/+/chat", qos: .atLeastOnce)
        let service = try await CompanionChatService.subscribe(
            bus: bus, prefix: Fixture.prefix, model: ScriptedModel(), settings: Fixture.settings(),
            logger: Logger(label: "test.chat"), now: { 1_700_000_500 })
        let task = Task { await service.run() }
        defer { task.cancel() }
        try await bus.publish(Fixture.prompt("alice", id: "p-1"))
        try await bus.publish(Fixture.prompt("bob", id: "p-2"))
        _ = try await chat.first(2)
        try await eventually("both lanes idle") {
            service.lanes.conversation(for: alice) != nil && service.lanes.conversation(for: bob) != nil
        }
        let bobsBefore = service.lanes.conversation(for: bob)

        #expect(await service.erase(alice) == nil)
        #expect(service.lanes.conversation(for: alice) == nil)
        #expect(service.lanes.walkerCount == 1)
        #expect(service.lanes.conversation(for: bob) == bobsBefore)
        #expect(await service.erase(alice) == nil, "asking again is fine")

        // Nothing remembered: the same prompt id is answered afresh, as a first check-in.
        try await bus.publish(Fixture.prompt("alice", id: "p-1"))
        let again = try await chat.first(1)
        #expect(again[0].topic == "safewalk/alice/chat")
        #expect(try Fixture.chat(again[0]).text == CompanionText.checkIns[0])
    }

    @Test func aConversationHeldByAWorkerIsDroppedWhenHandedBack() throws {
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: 10, maxTurns: 4)
        _ = lanes.enqueue(event("1"), for: alice)
        _ = lanes.enqueue(event("2"), for: alice)
        var (_, conversation) = try #require(lanes.next(for: alice))
        _ = conversation.step(for: event("1"))
        lanes.erase(alice)
        lanes.finish(conversation, for: alice)
        #expect(lanes.next(for: alice) == nil, "the queued event went with the rest")
        #expect(lanes.walkerCount == 0)
    }

    @Test func aWalkerWhoWritesAgainDuringTheErasureStartsAfresh() throws {
        let lanes = WalkerLanes(queueLimit: 4, maxWalkers: 10, maxTurns: 4)
        _ = lanes.enqueue(event("1"), for: alice)
        var (_, conversation) = try #require(lanes.next(for: alice))
        _ = conversation.step(for: event("1"))
        lanes.erase(alice)
        #expect(lanes.enqueue(event("2"), for: alice) == .queued)
        lanes.finish(conversation, for: alice)
        let (next, fresh) = try #require(lanes.next(for: alice))
        #expect(next == event("2"))
        #expect(fresh.history.turns.isEmpty)
    }
}
