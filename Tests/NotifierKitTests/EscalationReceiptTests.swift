import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The notifier tells the watchdog, on `_escalations/received/{w}`, that an escalation is in its
/// ledger, and answers every copy the watchdog publishes again, without telling anyone twice.
@Suite("Escalation receipts from the notifier", .holdsResources)
struct EscalationReceiptTests {
    @Test func everyCopyIsReceiptedOnceInTheLedgerAndSentOnce() async throws {
        let gateway = try await FakeTwilioGateway()
        let bus = InMemoryMessageBus()
        let received = try await bus.subscribe("safewalk/_escalations/received/+", qos: .atLeastOnce)
        let harness = try await NotifierHarness.start(
            contacts: [Fixtures.ana], clock: VirtualClock(autoAdvance: true),
            settings: ["SAFEWALK_CONTACTS_SETTLE": "30"], bus: bus,
            channels: { bus in
                [
                    DeviceChannel(bus: bus, prefix: Fixtures.prefix),
                    SMSHTTPChannel(configuration: gateway.configuration),
                ]
            })
        let event = Fixtures.escalation("esc-receipted")
        try await harness.publish(event)
        let first = try await received.first(1, within: 10)[0]
        #expect(first.topic == "safewalk/_escalations/received/\(event.walker)")
        #expect(try SafeWalkJSON.decode(EscalationReceipt.self, from: first.payload).id == "esc-receipted")
        #expect(try await harness.ledger.knows("esc-receipted"), "a receipt only once the ledger has it")

        _ = try await harness.nextReceipts(2)  // the device alert and the text went out
        try await harness.publish(event)  // the watchdog's copy: its receipt may have been lost
        let second = try await received.first(1, within: 10)[0]
        #expect(try SafeWalkJSON.decode(EscalationReceipt.self, from: second.payload).id == "esc-receipted")
        try await harness.publish(Fixtures.escalation("esc-later"))  // handled after the copy
        _ = try await received.first(1, within: 10)
        #expect(try await harness.nextReceipts(2).allSatisfy { $0.escalationId == "esc-later" })
        #expect(try await gateway.stats().requests == ["+15125550101": 2], "one text per escalation id")
        #expect(harness.bus.published(matching: "safewalk/+/alert").count == 2)
        await harness.stop(); await gateway.shutdown()
    }
}
