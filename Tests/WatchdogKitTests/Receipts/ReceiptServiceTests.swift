import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The watchdog publishes an escalation again, with its own id, until the notifier's receipt
/// comes (docs/CONTRACT.md, "Escalation receipts"); across a restart too. The real service, a
/// real SQLite file, an in-memory bus and a manual clock.
@Suite struct ReceiptServiceTests {
    static func receipt(_ walker: String, _ id: String) throws -> (String, Data) {
        ("safewalk/_escalations/received/\(walker)", try SafeWalkJSON.encode(EscalationReceipt(id: id)))
    }

    func escalationIDs(_ h: ServiceHarness, _ walker: String) throws -> [String] {
        try h.bus.published(matching: "safewalk/\(walker)/escalation").map { try $0.decoded(EscalationEvent.self).id }
    }

    @Test func anEscalationWithoutAReceiptGoesOutAgainUntilOneComes() async throws {
        let h = try await ServiceHarness(receiptWait: 5)
        try await h.act("alice", .needHelp)
        try await eventually("alice's escalation acknowledged") { try h.store.awaitingReceiptCount() == 1 }
        let first = try #require(try escalationIDs(h, "alice").first)

        h.clock.advance(by: 5)
        try await eventually("a copy after 5 s") { try escalationIDs(h, "alice").count == 2 }
        #expect(try escalationIDs(h, "alice") == [first, first], "the copy keeps the escalation's id")

        let (topic, payload) = try Self.receipt("alice", first)
        try await h.bus.publish(topic, payload: payload)
        try await eventually("the receipt recorded") { try h.store.awaitingReceiptCount() == 0 }

        // bob gets no receipt: his copy comes from the same wake-up that would send alice's.
        try await h.act("bob", .needHelp)
        try await eventually("bob's escalation acknowledged") { try h.store.awaitingReceiptCount() == 1 }
        h.clock.advance(by: 1_000)
        try await eventually("bob's copy") { try escalationIDs(h, "bob").count == 2 }
        #expect(try escalationIDs(h, "alice").count == 2, "no copy of alice's after her receipt")
        await h.cleanUp()
    }

    @Test func aRestartPublishesAgainWhatWasNeverReceiptedAndNothingElse() async throws {
        let existing = try ServiceHarness.freshStore()
        let before = try await ServiceHarness(store: existing, receiptWait: 5)
        try await before.act("alice", .needHelp)
        try await before.act("carol", .needHelp)
        try await eventually("both acknowledged") { try before.store.awaitingReceiptCount() == 2 }
        let carol = try #require(try escalationIDs(before, "carol").first)
        let (topic, payload) = try Self.receipt("carol", carol)
        try await before.bus.publish(topic, payload: payload)
        try await eventually("carol's receipt recorded") { try before.store.awaitingReceiptCount() == 1 }
        let alice = try #require(try escalationIDs(before, "alice").first)
        await before.stop()

        let after = try await ServiceHarness(now: 2_000, store: existing, receiptWait: 5)
        try await eventually("alice's escalation again at start") { try escalationIDs(after, "alice") == [alice] }
        try await after.act("bob", .needHelp)
        try await eventually("bob's escalation") { try escalationIDs(after, "bob").count == 1 }
        #expect(try escalationIDs(after, "carol").isEmpty, "carol's was receipted")
        await after.cleanUp()
    }

    @Test func aReceiptOnAnotherWalkersTopicOrMalformedIsRefusedAndCounted() async throws {
        let h = try await ServiceHarness(receiptWait: 5)
        let rejections = try await h.bus.subscribe("safewalk/_rejected/watchdog", qos: .atLeastOnce)
        try await h.act("alice", .needHelp)
        try await eventually("alice's escalation acknowledged") { try h.store.awaitingReceiptCount() == 1 }
        let id = try #require(try escalationIDs(h, "alice").first)
        let (_, payload) = try Self.receipt("alice", id)
        try await h.bus.publish("safewalk/_escalations/received/mallory", payload: payload)
        try await h.bus.publish("safewalk/_escalations/received/alice", payload: Data("{\"v\":1}".utf8))
        try await h.bus.publish("safewalk/_escalations/received/alice", payload: Data(repeating: 0x20, count: 4_096))
        let reasons = try await rejections.first(2).map {
            try JSONSerialization.jsonObject(with: $0.payload) as? [String: Any]
        }.compactMap { $0?["reason"] as? String }
        #expect(reasons.count == 2)
        #expect(reasons.contains("too_large"), "\(reasons)")
        h.clock.advance(by: 5)
        try await eventually("the copy still comes") { try escalationIDs(h, "alice").count == 2 }
        #expect(try h.store.awaitingReceiptCount() == 1)
        await h.cleanUp()
    }
}
