import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The monitoring desk end to end through the real `notifier` executable, a real broker and the
/// fake Twilio: the desk's acknowledgement and its close, as `web` and the watchdog publish them,
/// reach the contacts by text and the walker's phone on `{w}/alert`, each once.
@Suite("notifier process: the monitoring desk", .holdsResources)
struct NotifierDeskProcessTests {
    static let cal = Contact(id: "c4", name: "Cal", rawPhone: "737 555 0102")
    static let numbers = ["+15125550101", "+17375550102"]

    @Test func theDesksAcknowledgementAndCloseReachContactsAndTheWalkerOnce() async throws {
        let broker = try await MosquittoBroker.start()
        let gateway = try await FakeTwilioGateway()
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notifier-\(UUID().uuidString.prefix(8))")
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.notifier).name(), qos: .atLeastOnce)
        let alerts = try await observer.subscribe(Topic.alert(Fixtures.walker).name(), qos: .atLeastOnce)
        let answers = try await observer.subscribe(Topic.acknowledgementResult.name(), qos: .atLeastOnce)
        try await observer.publish(
            Topic.contacts(Fixtures.walker).name(),
            payload: SafeWalkJSON.encode(ContactList(contacts: [Fixtures.ana, Self.cal])), retain: true)
        let env = gateway.environment.merging([
            "SAFEWALK_CHANNELS": "device,sms-http,log", "SAFEWALK_CONTACTS_SETTLE": "0.5",
            "SAFEWALK_TIME_ZONE": "UTC", DeskName.environmentKey: "the night desk",
        ]) { $1 }
        let notifier = try ServiceProcess.start(.notifier, broker: broker, environment: env, dataDirectory: dataDir)
        try await withTimeout(15, "notifier online") {
            for await message in status where message.string == "online" { return }
        }
        func texts(_ count: Int) async throws -> [String: [String]] {
            try await eventually("\(count) texts to each contact", within: 20) {
                let bodies = try await gateway.stats().bodies
                return Self.numbers.allSatisfy { (bodies[$0]?.count ?? 0) >= count }
            }
            return try await gateway.stats().bodies
        }
        func nextAlert() async throws -> DeviceAlert {
            try SafeWalkJSON.decoder().decode(
                DeviceAlert.self, from: try #require(try await alerts.first(1, within: 15).first).payload)
        }

        try await observer.publish(
            Topic.escalation(Fixtures.walker).name(), payload: SafeWalkJSON.encode(Fixtures.escalation("esc-desk")))
        _ = try await texts(1)
        _ = try await nextAlert()

        // `web`, for olga signed in at /ops.
        let request = AcknowledgementRequest(
            id: "desk-1", via: .desk, user: WalkerID(validating: "olga"), walker: Fixtures.walker,
            at: Date().timeIntervalSince1970)
        try await observer.publish(Topic.acknowledgementRequest.name(), payload: SafeWalkJSON.encode(request))
        let answer = try SafeWalkJSON.decoder().decode(
            AcknowledgementResult.self, from: try #require(try await answers.first(1, within: 15).first).payload)
        #expect(answer.ok && answer.by == "the night desk" && answer.incident == "esc-desk")
        let acknowledged = try await texts(2)
        for number in Self.numbers {
            #expect(acknowledged[number]?[1].hasPrefix("The night desk is handling it (alex).") == true)
        }
        #expect(try await nextAlert().title == "The night desk is on it")

        // The watchdog, after the desk's `_desk/close`; retained, so it may come again.
        let closed = IncidentState(
            incident: "esc-desk", walker: Fixtures.walker, state: .closed, reason: .needHelp, level: .red,
            duress: false, openedAt: Fixtures.now, closedAt: Date().timeIntervalSince1970, closedBy: .desk,
            closeReason: .falseAlarm)
        let incidentTopic = Topic.incident(Fixtures.walker).name()
        try await observer.publish(incidentTopic, payload: SafeWalkJSON.encode(closed), retain: true)
        let cleared = try await texts(3)
        for number in Self.numbers {
            #expect(cleared[number]?[2].hasPrefix("The night desk closed alex's alert (false alarm) at ") == true)
        }
        let alert = try await nextAlert()
        #expect(alert.title == "The night desk closed your alert" && alert.body == "Reason: false alarm.")

        // The same close again, then another walker's escalation as a marker: nothing more for alex.
        try await observer.publish(incidentTopic, payload: SafeWalkJSON.encode(closed), retain: true)
        let sam = try WalkerID("sam")
        let samAlerts = try await observer.subscribe(Topic.alert(sam).name(), qos: .atLeastOnce)
        try await observer.publish(
            Topic.escalation(sam).name(), payload: SafeWalkJSON.encode(Fixtures.escalation("esc-sam", walker: sam)))
        _ = try await samAlerts.first(1, within: 15)
        #expect(try await gateway.stats().accepted == ["+15125550101": 3, "+17375550102": 3])

        notifier.signal(SIGTERM)
        #expect(try await notifier.waitForExit(within: 10) == 0)
        await observer.shutdown(); await gateway.shutdown(); await broker.shutdown()
        try? FileManager.default.removeItem(at: dataDir)
    }
}
