import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The real `notifier` executable, a real broker, a fake Twilio: killed with SIGKILL in the
/// middle of a delivery and restarted, it finishes and sends nothing twice.
@Suite("notifier process: crash safety", .holdsResources)
struct NotifierProcessTests {
    static let cal = Contact(id: "c4", name: "Cal", rawPhone: "737 555 0102")

    @Test func killedMidDeliveryAndRestartedItFinishesWithoutDuplicates() async throws {
        let broker = try await MosquittoBroker.start()
        let gateway = try await FakeTwilioGateway()
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notifier-\(UUID().uuidString.prefix(8))")
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.notifier).name(), qos: .atLeastOnce)
        let receipts = try await observer.subscribe(TopicFilter.every(.delivery).rawValue, qos: .atLeastOnce)
        let alerts = try await observer.subscribe(TopicFilter.every(.alert).rawValue, qos: .atLeastOnce)
        let contacts = ContactList(contacts: [Fixtures.ana, Fixtures.ben, Self.cal])
        try await observer.publish(
            Topic.contacts(Fixtures.walker).name(), payload: SafeWalkJSON.encode(contacts), retain: true)
        try await gateway.control(hold: ["+442079460958"])  // Ben's request will hang: the crash lands mid-send

        let env = gateway.environment.merging([
            "SAFEWALK_CHANNELS": "device,sms-http,log", "SAFEWALK_NOTIFY_BACKOFF": "0.05",
            "SAFEWALK_SMS_TIMEOUT": "30", "SAFEWALK_CONTACTS_SETTLE": "0.5", "SAFEWALK_TIME_ZONE": "UTC",
        ]) { $1 }
        func startNotifier() async throws -> ChildProcess {
            let process = try ServiceProcess.start(.notifier, broker: broker, environment: env, dataDirectory: dataDir)
            try await withTimeout(15, "notifier online") {
                for await message in status where message.string == "online" { return }
            }
            return process
        }
        func nextReceipt() async throws -> DeliveryReceipt {
            try SafeWalkJSON.decoder().decode(
                DeliveryReceipt.self, from: try #require(try await receipts.first(1, within: 15).first).payload)
        }

        let first = try await startNotifier()
        try await observer.publish(
            Topic.escalation(Fixtures.walker).name(), payload: SafeWalkJSON.encode(Fixtures.escalation("esc-kill")))
        var sent: [String: Int] = [:]
        for _ in 0..<4 {  // device, log, Ana, Cal; Ben is stuck in the gateway
            let receipt = try await nextReceipt()
            #expect(receipt.status == .sent)
            sent[receipt.recipient, default: 0] += 1
        }
        #expect(sent == ["alex": 1, "log": 1, "+*******0101": 1, "+*******0102": 1])
        try await eventually("Ben's request held") { try await gateway.stats().held == 1 }

        first.signal(SIGKILL)
        #expect(try await first.waitForExit(within: 10) == 128 + SIGKILL)
        try await gateway.control(hold: [], release: true)

        let second = try await startNotifier()
        var ben: DeliveryReceipt?
        while ben == nil {  // a receipt published just before the kill may be published again
            let receipt = try await nextReceipt()
            if receipt.recipient == "+********0958" { ben = receipt }
        }
        #expect(ben?.status == .sent)
        #expect(ben?.attempts == 2)  // the interrupted attempt and the one that finished it

        // The watchdog re-publishes after its own restart: nothing goes again.
        try await observer.publish(
            Topic.escalation(Fixtures.walker).name(), payload: SafeWalkJSON.encode(Fixtures.escalation("esc-kill")))
        let sam = try WalkerID("sam")
        try await observer.publish(
            Topic.escalation(sam).name(),
            payload: SafeWalkJSON.encode(Fixtures.escalation("esc-after", walker: sam)))
        var after = try await nextReceipt()
        while after.escalationId != "esc-after" { after = try await nextReceipt() }
        #expect(after.status == .sent)

        let stats = try await gateway.stats()
        #expect(stats.accepted == ["+15125550101": 1, "+442079460958": 1, "+17375550102": 1])
        #expect(stats.requests == ["+15125550101": 1, "+442079460958": 2, "+17375550102": 1])
        let alertTopics = try await alerts.first(2).map(\.topic)
        #expect(alertTopics == ["safewalk/alex/alert", "safewalk/sam/alert"])  // alex's alert went once

        second.signal(SIGTERM)
        #expect(try await second.waitForExit(within: 10) == 0)
        await observer.shutdown(); await gateway.shutdown(); await broker.shutdown()
        try? FileManager.default.removeItem(at: dataDir)
    }

    @Test func anEscalationPublishedWhileTheNotifierIsDownIsDeliveredWhenItReturns() async throws {
        let broker = try await MosquittoBroker.start()
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notifier-\(UUID().uuidString.prefix(8))")
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.notifier).name(), qos: .atLeastOnce)
        let alerts = try await observer.subscribe(TopicFilter.every(.alert).rawValue, qos: .atLeastOnce)
        let env = ["SAFEWALK_CHANNELS": "device", "SAFEWALK_CONTACTS_SETTLE": "0.5"]
        func startNotifier() async throws -> ChildProcess {
            let process = try ServiceProcess.start(.notifier, broker: broker, environment: env, dataDirectory: dataDir)
            try await withTimeout(15, "notifier online") {
                for await message in status where message.string == "online" { return }
            }
            return process
        }
        let first = try await startNotifier()  // establishes its persistent session
        try await observer.publish(
            Topic.escalation(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(Fixtures.escalation("esc-probe")))
        #expect(try await alerts.first(1).count == 1)  // it is listening and its session holds the subscription
        first.signal(SIGTERM)
        #expect(try await first.waitForExit(within: 10) == 0)
        try await observer.publish(
            Topic.escalation(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(Fixtures.escalation("esc-while-down")))
        let second = try await startNotifier()
        // The broker hands the queued escalation over right after CONNACK, before the notifier has
        // subscribed again; the client holds such messages for the first matching subscription.
        let alert = try await alerts.first(1, within: 15)
        #expect(alert.map(\.topic) == ["safewalk/alex/alert"])
        second.signal(SIGTERM)
        _ = try await second.waitForExit(within: 10)
        await observer.shutdown(); await broker.shutdown()
        try? FileManager.default.removeItem(at: dataDir)
    }
}
