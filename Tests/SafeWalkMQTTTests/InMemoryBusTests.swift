import Foundation
import SafeWalkMQTT
import Testing

@Suite("In-memory bus for unit tests")
struct InMemoryBusTests {
    @Test func deliversByWildcardAndKeepsRetainedForLateSubscribers() async throws {
        let bus = InMemoryMessageBus()
        try await bus.publish("safewalk/alice/status", string: "safe", retain: true)
        let fixes = try await bus.subscribe("safewalk/+/fix", qos: .atLeastOnce)
        let statuses = try await bus.subscribe("safewalk/#", qos: .atLeastOnce)
        try await bus.publish("safewalk/bob/fix", string: "fix")
        var fixIterator = fixes.makeAsyncIterator()
        #expect(await fixIterator.next()?.topic == "safewalk/bob/fix")
        var all = statuses.makeAsyncIterator()
        let retained = await all.next()
        #expect(retained?.topic == "safewalk/alice/status")
        #expect(retained?.retain == true)
        #expect(await all.next()?.retain == false)
        #expect(bus.published(matching: "safewalk/+/fix").count == 1)
    }

    /// The admission check costs the same for the last message as for the first. It once grew
    /// by two closure thunks per message (a function stored bare in a Mutex is re-abstracted on
    /// each write-back): 100,000 messages then took minutes and overflowed the stack.
    @Test(.timeLimit(.minutes(1))) func admitOnlyStaysCheapOverManyMessages() async throws {
        let bus = InMemoryMessageBus()
        let few = try await bus.subscribe("safewalk/+/position", qos: .atLeastOnce)
        few.admitOnly { $0 == "safewalk/alice/position" }
        for index in 0..<100_000 {
            try await bus.publish(index % 1_000 == 0 ? "safewalk/alice/position" : "safewalk/bob/position", string: "x")
        }
        var admitted = 0
        for await batch in few.batches {
            admitted += batch.count
            if admitted >= 100 { break }
        }
        #expect(admitted == 100)
        #expect(few.highWaterMark == 100)
    }

    @Test func rejectsWildcardsInPublishTopics() async {
        let bus = InMemoryMessageBus()
        await #expect(throws: MQTTError.invalidTopic("safewalk/+/fix")) {
            try await bus.publish("safewalk/+/fix", string: "x")
        }
    }

    @Test func aConsumerThatStopsEarlyLeavesTheRestForTheNextIteration() async throws {
        let bus = InMemoryMessageBus()
        let messages = try await bus.subscribe("t", qos: .atLeastOnce)
        for index in 0..<5 { try await bus.publish("t", string: "\(index)") }
        var first: [String] = []
        for await message in messages {
            first.append(message.string ?? "")
            if first.count == 2 { break }
        }
        var rest: [String] = []
        for await message in messages {
            rest.append(message.string ?? "")
            if rest.count == 3 { break }
        }
        #expect(first == ["0", "1"])
        #expect(rest == ["2", "3", "4"])
    }

    @Test func batchesHandOverEverythingPendingAtOnce() async throws {
        let bus = InMemoryMessageBus()
        let messages = try await bus.subscribe("t", qos: .atLeastOnce)
        for index in 0..<100 { try await bus.publish("t", string: "\(index)") }
        var batches = messages.batches.makeAsyncIterator()
        let batch = await batches.next()
        #expect(batch?.count == 100)
        #expect(messages.highWaterMark == 100)
    }

    @Test func cancellingEndsIteration() async throws {
        let bus = InMemoryMessageBus()
        let messages = try await bus.subscribe("t", qos: .atLeastOnce)
        let reader = Task { () -> Int in
            var count = 0
            for await _ in messages { count += 1 }
            return count
        }
        try await bus.publish("t", string: "one")
        messages.cancel()
        #expect(await reader.value <= 1)
    }

    @Test func topicMatchingFollowsMQTT() {
        #expect(mqttTopic("safewalk/alice/fix", matches: "safewalk/+/fix"))
        #expect(mqttTopic("safewalk/alice/contacts/add", matches: "safewalk/#"))
        #expect(!mqttTopic("safewalk/alice/contacts/add", matches: "safewalk/+/contacts"))
        #expect(!mqttTopic("owntracks/alice/phone", matches: "safewalk/#"))
    }
}
