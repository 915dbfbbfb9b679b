import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 17, deleting an account across the whole stack: refused while the walker has an open
/// incident (nothing erased), then each service erases what it owns when told over the broker,
/// and the walker's logins, retained messages and rows are gone everywhere, someone else's not.
@Suite("End to end: deleting an account", .serialized)
struct AccountDeletionStoryTests {
    static let carolsTopics = ["safewalk/carol/#", "owntracks/carol/#"]

    @Test func deletionWaitsForTheIncidentToEndThenErasesEverythingEverywhere() async throws {
        try await ServiceStack.withAccounts { stack in
            let carol = try await Person.signUp("carol", on: stack)
            var phone = try await carol.phone(on: stack)
            let config = try await carol.ownTracksSetup().setup.config
            var device = try await AccountOwnTracksStoryTests.connect(config, on: stack)
            try await Self.leaveTraces(of: carol, phone: phone, on: stack)
            // The OwnTracks app's Last Will as the broker would publish it (location-ingest keeps
            // its time), then the app is back with a location.
            let presence = try await stack.observer.subscribe(try carol.topic(.presence), qos: .atLeastOnce)
            try await device.publish(config.locationTopic, string: #"{"_type":"lwt","tst":1750000000}"#)
            try await withTimeout(10, "offline for carol's OwnTracks app") {
                for await message in presence where message.string == "offline" { return }
            }
            try await device.publish(
                config.locationTopic, string: AccountOwnTracksStoryTests.location(lat: 30.29), retain: true)
            let escalations = try await stack.observer.subscribe(try carol.topic(.escalation), qos: .atLeastOnce)
            try await Self.send(.start, as: carol, with: phone)
            try await Self.send(.needHelp, as: carol, with: phone)
            _ = try await escalations.decoded(EscalationEvent.self)
            let dave = try await Person.signUp("dave", on: stack)
            let davePhone = try await dave.phone(on: stack)
            try await Self.leaveTraces(of: dave, phone: davePhone, on: stack)

            let everyone: Set<ServiceName> = [.web, .locationIngest, .watchdog, .notifier, .contactsStore]
            try? await eventually("carol's rows in every store", within: 20) {
                try WalkerTraces.holders(of: "carol", in: stack) == everyone
            }
            #expect(try WalkerTraces.holders(of: "carol", in: stack) == everyone)
            try? await eventually("carol's OwnTracks will stored", within: 10) {
                try WalkerTraces.rows(of: "carol", in: stack)["location-ingest owntracks_will"] == 1
            }
            #expect(try WalkerTraces.rows(of: "carol", in: stack)["location-ingest owntracks_will"] == 1)
            let davesHolders = try WalkerTraces.holders(of: "dave", in: stack)
            #expect(davesHolders.isSuperset(of: [.web, .locationIngest, .contactsStore]), "\(davesHolders)")
            let retained = try await WalkerTraces.retainedTopics(under: Self.carolsTopics, in: stack)
            let expectedRetained = [
                "owntracks/carol/phone", "safewalk/carol/contacts", "safewalk/carol/position",
                "safewalk/carol/presence", "safewalk/carol/status",
            ]
            #expect(Set(retained).isSuperset(of: expectedRetained), "\(retained)")

            // Refused while her incident is open, and nothing is erased.
            let refused = try await carol.deleteAccount()
            #expect(refused.status == 409 && refused.refusal?.reason == "openIncident", "\(refused.text)")
            #expect(try WalkerTraces.holders(of: "carol", in: stack) == everyone)
            #expect(try await WalkerTraces.retainedTopics(under: Self.carolsTopics, in: stack) == retained)
            #expect(try await stack.pluginLogins().isSuperset(of: ["carol", "carol.owntracks"]))
            // The attempt disabled her logins first and enabled them again: her phones log in anew.
            for client in [phone, device] { await client.shutdown() }
            phone = try await carol.phone(on: stack)
            device = try await AccountOwnTracksStoryTests.connect(config, on: stack)

            // She ends the incident (no PIN set, none needed); now the account goes.
            let answers = try await phone.subscribe(try carol.topic(.actionResult), qos: .atLeastOnce)
            try await Self.send(.imSafe, as: carol, with: phone, id: "safe")
            let safe = try await answers.decoded(ActionResult.self, where: { $0.id == "safe" }).first
            #expect(safe?.ok == true, "\(String(describing: safe))")
            let erased = try await carol.deleteAccount()
            #expect(erased.status == 200, "\(erased.text)")
            #expect(erased.decoded([String: String].self)?["state"] == "erased")

            try await phone.waitUntilDisconnected()
            try await device.waitUntilDisconnected()
            #expect(try await stack.broker.refuses(username: "carol", password: carol.password))
            #expect(try await stack.broker.refuses(username: config.username, password: config.password))
            #expect(try await carol.web.signIn("carol", carol.password).status == 401)
            // Every login of carol's is gone (her app sessions' too); dave keeps his and his sessions'.
            let logins = try await stack.pluginLogins()
            #expect(!logins.contains { $0.hasPrefix("carol") }, "\(logins)")
            #expect(Set(logins.filter { !$0.hasPrefix("dave.app-") }) == [DynamicSecurityBroker.adminUsername, "dave"])
            try? await eventually("no retained message of carol's", within: 10) {
                try await WalkerTraces.retainedTopics(under: Self.carolsTopics, in: stack).isEmpty
            }
            #expect(try await WalkerTraces.retainedTopics(under: Self.carolsTopics, in: stack) == [])
            try? await eventually("no row of carol's", within: 10) {
                try WalkerTraces.rows(of: "carol", in: stack).values.allSatisfy { $0 == 0 }
            }
            #expect(try WalkerTraces.rows(of: "carol", in: stack).filter { $0.value > 0 } == [:])

            // Someone else's account keeps everything.
            #expect(try WalkerTraces.holders(of: "dave", in: stack) == davesHolders)
            #expect(try await stack.broker.refusal(username: "dave", password: dave.password) == nil)
            for client in [phone, device, davePhone] { await client.shutdown() }
        }
    }

    /// Leaves `person` in the services by the phone: presence online (retained), a contact, and
    /// fixes, waiting until the contact is stored and a position published.
    static func leaveTraces(of person: Person, phone: MQTTClient, on stack: ServiceStack) async throws {
        try await phone.publish(try person.topic(.presence), payload: Presence.online.payload, retain: true)
        let results = try await phone.subscribe(try person.topic(.contactsResult), qos: .atLeastOnce)
        try await phone.publish(
            try person.topic(.contactsAdd), payload: SafeWalkJSON.encode(ContactAdd(name: "Mom", phone: "512-555-0101"))
        )
        #expect(try await results.decoded(ContactResult.self).first?.isOK == true)
        let positions = try await phone.subscribe(try person.topic(.position), qos: .atLeastOnce)
        let last = 30.2849 + 2 * 0.0002
        for step in 0..<3 {
            let fix = LocationFix(
                lat: 30.2849 + Double(step) * 0.0002, lon: -97.7341, tst: Date().timeIntervalSince1970, acc: 5)
            try await phone.publish(try person.topic(.fix), payload: SafeWalkJSON.encode(fix))
        }
        // Wait for the last fix, not the first: a fix still on its way would mark the walker
        // online again after the OwnTracks will the story sends next (a fix from any device
        // proves a device is there), and the story would wait for an `offline` that never stays.
        _ = try await positions.decoded(PositionUpdate.self, where: { abs($0.fix.lat - last) < 1e-9 })
    }

    static func send(_ kind: Action.Kind, as person: Person, with phone: MQTTClient, id: String = UUID().uuidString)
        async throws
    {
        try await phone.publish(try person.topic(.action), payload: SafeWalkJSON.encode(Action(id: id, kind: kind)))
    }
}
