import Foundation
import Logging
import SafeWalkMQTT
import TestSupport
import Testing

/// The project's own mosquitto.conf and acl, on a real broker: who may connect, write and read.
@Suite("Broker authentication and ACLs", .holdsResources)
struct BrokerSecurityTests {
    static let users = [
        "alice": "alice-pw", "bob": "bob-pw", "watchdog": "watchdog-pw", "notifier": "notifier-pw",
        "location-ingest": "ingest-pw", "operator": "operator-pw",
    ]

    /// A connected client logged in as `user`.
    func login(_ user: String, on broker: MosquittoBroker) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: Self.users[user])
    }

    @Test func anonymousAndWrongPasswordAreRefused() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let anonymous = try await broker.refusal(username: nil, password: nil)
        let wrong = try await broker.refusal(username: "alice", password: "not-her-password")
        let right = try await broker.refusal(username: "alice", password: "alice-pw")
        #expect(anonymous?.isRefusal == true, "anonymous: \(String(describing: anonymous))")
        #expect(wrong?.isRefusal == true, "wrong password: \(String(describing: wrong))")
        #expect(right == nil, "the right password must work, or the refusals above prove nothing")
        await broker.shutdown()
    }

    @Test func aWalkerCannotWriteAnotherWalkersFix() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let ingest = try await login("location-ingest", on: broker)
        let fixes = try await ingest.subscribe("safewalk/+/fix", qos: .atLeastOnce)
        let alice = try await login("alice", on: broker)
        try await alice.publish("safewalk/bob/fix", string: "forged")
        try await alice.publish("owntracks/bob/phone", string: "forged")
        try await alice.publish("safewalk/alice/fix", string: "own")
        // Ordered delivery from one publisher: if the forgery had passed it would arrive first.
        #expect(try await fixes.first(1).map(\.string) == ["own"])
        await alice.shutdown(); await ingest.shutdown(); await broker.shutdown()
    }

    @Test func aWalkerCannotWriteServiceOutputs() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let notifier = try await login("notifier", on: broker)
        let escalations = try await notifier.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        let operatorView = try await login("operator", on: broker)
        let statuses = try await operatorView.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        let alice = try await login("alice", on: broker)
        try await alice.publish("safewalk/alice/escalation", string: "fake escalation")
        try await alice.publish("safewalk/alice/status", string: "fake status", retain: true)
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/alice/escalation", string: "real escalation")
        try await watchdog.publish("safewalk/alice/status", string: "real status", retain: true)
        #expect(try await escalations.first(1).map(\.string) == ["real escalation"])
        #expect(try await statuses.first(1).map(\.string) == ["real status"])
        for client in [notifier, operatorView, alice, watchdog] { await client.shutdown() }
        await broker.shutdown()
    }

    /// A device reads its own position as `{w}/position` or as `{w}/position/#` (the form that
    /// also matches a cluster's partition level, docs/CONTRACT.md); the ACL's `position/#` grants
    /// both on Mosquitto, and neither reaches another walker's.
    @Test(arguments: ["safewalk/alice/position", "safewalk/alice/position/#"])
    func aWalkerReadsHerOwnPositionEitherWay(filter: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let alice = try await login("alice", on: broker)
        let own = try await alice.subscribe(filter, qos: .atLeastOnce)
        let others = try? await alice.subscribe("safewalk/bob/position/#", qos: .atLeastOnce)
        let ingest = try await login("location-ingest", on: broker)
        try await ingest.publish("safewalk/bob/position", string: "bob's position")
        try await ingest.publish("safewalk/alice/position", string: "alice's position")
        #expect(try await own.first(1).map(\.string) == ["alice's position"])
        if let others {
            let leaked = await others.drained().map(\.topic)
            #expect(leaked.isEmpty, "leaked: \(leaked)")
        }
        for client in [alice, ingest] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test(arguments: ["safewalk/bob/#", "safewalk/+/escalation", "#", "safewalk/_rejected/#", "safewalk/bob/status"])
    func aWalkerCannotReadOthers(filter: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let alice = try await login("alice", on: broker)
        let own = try await alice.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        let spying: MQTTSubscription?
        do {
            spying = try await alice.subscribe(filter, qos: .atLeastOnce)
        } catch MQTTError.subscriptionRefused {
            spying = nil  // refused outright: the strongest answer
        }
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/bob/status", string: "bob's status")
        try await watchdog.publish("safewalk/bob/escalation", string: "bob's escalation")
        let ingest = try await login("location-ingest", on: broker)
        try await ingest.publish("safewalk/_rejected/location-ingest", string: "a rejection")
        try await watchdog.publish("safewalk/alice/status", string: "alice's status")
        // Alice's own message proves delivery happened; nothing of bob's may have reached her.
        #expect(try await own.first(1).map(\.string) == ["alice's status"])
        if let spying {
            spying.cancel()
            var leaked: [String] = []
            for await message in spying { leaked.append(message.topic) }
            #expect(leaked.allSatisfy { $0.hasPrefix("safewalk/alice/") }, "leaked: \(leaked)")
        }
        for client in [alice, watchdog, ingest] { await client.shutdown() }
        await broker.shutdown()
    }
}

extension MQTTError {
    var isRefusal: Bool {
        if case .connectionRefused = self { return true }
        return false
    }
}
