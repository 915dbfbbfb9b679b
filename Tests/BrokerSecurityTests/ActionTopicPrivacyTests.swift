import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// `{w}/action` carries cancel and duress PINs: on the real broker with the project's ACL, only
/// the watchdog may read it; operators and every other service get the rest, never actions.
/// And each walker reads its own answers (`action/result`, `rejected`), nobody else's.
@Suite("Broker ACL: PINs stay on the walker's own input topic", .holdsResources)
struct ActionTopicPrivacyTests {
    static let users = [
        "alice": "alice-pw", "bob": "bob-pw", "watchdog": "watchdog-pw", "notifier": "notifier-pw",
        "location-ingest": "ingest-pw", "companion-chat": "chat-pw", "contacts-store": "contacts-pw",
        "channel-example": "channel-pw", "operator": "operator-pw",
    ]

    func login(_ user: String, on broker: MosquittoBroker) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: Self.users[user])
    }

    /// Subscribes `user` to `filter`; nil when the broker refuses the subscription outright.
    func tryToRead(_ filter: String, as user: String, on broker: MosquittoBroker) async throws
        -> (MQTTClient, MQTTSubscription?)
    {
        let client = try await login(user, on: broker)
        do {
            return (client, try await client.subscribe(filter, qos: .atLeastOnce))
        } catch MQTTError.subscriptionRefused {
            return (client, nil)
        }
    }

    @Test(arguments: ["operator", "notifier", "location-ingest", "companion-chat", "contacts-store", "channel-example"])
    func onlyTheWatchdogReadsActions(user: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let watchdog = try await login("watchdog", on: broker)
        let watchdogSees = try await watchdog.subscribe("safewalk/+/action", qos: .atLeastOnce)
        var spies: [(MQTTClient, MQTTSubscription?)] = []
        for filter in ["#", "safewalk/#", "safewalk/+/action", "safewalk/alice/action"] {
            spies.append(try await tryToRead(filter, as: user, on: broker))
        }
        // A readable channel on the same connection proves this user does receive what it may.
        let alice = try await login("alice", on: broker)
        try await alice.publish("safewalk/alice/action", string: #"{"v":1,"action":"imSafe","id":"a1","pin":"1234"}"#)
        #expect(try await watchdogSees.first(1).map(\.topic) == ["safewalk/alice/action"])
        try await watchdog.publish("safewalk/alice/status", string: "marker", retain: false)
        for (client, subscription) in spies {
            guard let subscription else { continue }
            // Delivery from one broker is ordered per publisher pair; wait a moment for a leak
            // that would come after the marker, then look at everything that arrived.
            try await Task.sleep(for: .milliseconds(300))
            subscription.cancel()
            var topics: [String] = []
            for await message in subscription { topics.append(message.topic) }
            #expect(!topics.contains("safewalk/alice/action"), "\(user) read an action: \(topics)")
            await client.shutdown()
        }
        for client in [watchdog, alice] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func theOperatorStillReadsStatusesAndAnswers() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let operatorView = try await login("operator", on: broker)
        let statuses = try await operatorView.subscribe("safewalk/+/status", qos: .atLeastOnce)
        let answers = try await operatorView.subscribe("safewalk/+/action/result", qos: .atLeastOnce)
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/alice/status", string: "status")
        try await watchdog.publish("safewalk/alice/action/result", string: "answer")
        #expect(try await statuses.first(1).map(\.string) == ["status"])
        #expect(try await answers.first(1).map(\.string) == ["answer"])
        for client in [operatorView, watchdog] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func aWalkerReadsOnlyItsOwnAnswers() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let (alice, aliceAll) = try await tryToRead("safewalk/+/rejected", as: "alice", on: broker)
        let own = try await alice.subscribe("safewalk/alice/action/result", qos: .atLeastOnce)
        let watchdog = try await login("watchdog", on: broker)
        let chat = try await login("companion-chat", on: broker)
        try await chat.publish("safewalk/bob/rejected", string: "bob's refusal")
        try await watchdog.publish("safewalk/bob/action/result", string: "bob's answer")
        try await chat.publish("safewalk/alice/rejected", string: "alice's refusal")
        try await watchdog.publish("safewalk/alice/action/result", string: "alice's answer")
        #expect(try await own.first(1).map(\.string) == ["alice's answer"])
        if let aliceAll {
            #expect(try await aliceAll.first(1).map(\.string) == ["alice's refusal"])
        }
        for client in [alice, watchdog, chat] { await client.shutdown() }
        await broker.shutdown()
    }
}
