import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// `_incidents/{w}` shows a duress incident open and red while the walker's device was shown a
/// cancel: on the real broker with the project's ACL, the walker can neither read it (not even its
/// own: it is outside `safewalk/%u/`) nor write it; only the watchdog writes it, and only the
/// notifier, `web` and operators read it.
@Suite("Broker ACL: incidents are for services, never for the walker", .holdsResources)
struct IncidentTopicPrivacyTests {
    static let users = [
        "alice": "alice-pw", "bob": "bob-pw", "watchdog": "watchdog-pw", "notifier": "notifier-pw",
        "web": "web-pw", "operator": "operator-pw", "location-ingest": "ingest-pw", "companion-chat": "chat-pw",
        "contacts-store": "contacts-pw", "channel-example": "channel-pw",
    ]
    static let duress = #"{"duress":true,"incident":"e1","level":"red","state":"open","v":1,"walker":"alice"}"#

    func login(_ user: String, on broker: MosquittoBroker) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: Self.users[user])
    }

    /// Subscribes to `filter`; nil when the broker refuses the subscription outright.
    func tryToRead(_ filter: String, on client: MQTTClient) async throws -> MQTTSubscription? {
        do {
            return try await client.subscribe(filter, qos: .atLeastOnce)
        } catch MQTTError.subscriptionRefused {
            return nil
        }
    }

    /// For each login with no business with incidents, a topic it may read and who writes it: the
    /// marker that proves delivery happened.
    static let markers: [String: (topic: String, writer: String)] = [
        "alice": ("safewalk/alice/chat", "companion-chat"),
        "bob": ("safewalk/bob/chat", "companion-chat"),
        "companion-chat": ("safewalk/alice/prompt", "watchdog"),
        "contacts-store": ("safewalk/alice/contacts/add", "alice"),
        "channel-example": ("safewalk/alice/escalation", "watchdog"),
    ]

    /// The walker's own device, and every other login that has no business with incidents,
    /// subscribes every way it can, after the watchdog published one retained and before it
    /// publishes another. Its marker, sent after both, proves delivery happened: nothing of the
    /// incident may have arrived before it.
    /// (location-ingest reads incidents since issue 18: it puts OwnTracks apps in move mode while one
    /// is open, and only through DeviceDisclosure; contacts-store since issue 19: it alerts a
    /// walker's SOS contacts in the circle, never the walker's own topics under duress.)
    @Test(arguments: ["alice", "bob", "companion-chat", "channel-example"])
    func nobodyElseReadsAnIncidentNotEvenItsWalker(user: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/_incidents/alice", string: Self.duress, retain: true)
        let spy = try await login(user, on: broker)
        var spies: [MQTTSubscription] = []
        for filter in ["#", "safewalk/#", "safewalk/_incidents/+", "safewalk/_incidents/alice", "safewalk/alice/#"] {
            if let subscription = try await tryToRead(filter, on: spy) { spies.append(subscription) }
        }
        let marker = try #require(Self.markers[user])
        let markers = try await spy.subscribe(marker.topic, qos: .atLeastOnce)
        try await watchdog.publish("safewalk/_incidents/alice", string: Self.duress)
        let writer = try await login(marker.writer, on: broker)
        try await writer.publish(marker.topic, string: "marker")
        #expect(try await markers.first(1).map(\.string) == ["marker"])
        for subscription in spies {
            let seen = await subscription.drained().map(\.topic)
            #expect(!seen.contains { $0.contains("_incidents") }, "\(user) read an incident: \(seen)")
        }
        for client in [watchdog, spy, writer] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func aWalkerCannotWriteItsIncident() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let notifier = try await login("notifier", on: broker)
        let incidents = try await notifier.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        let alice = try await login("alice", on: broker)
        try await alice.publish("safewalk/_incidents/alice", string: "forged close", retain: true)
        try await alice.publish("safewalk/_incidents/bob", string: "forged", retain: true)
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/_incidents/alice", string: "real", retain: true)
        // Alice's publishes were handled first: had they passed, they would have arrived first.
        #expect(try await incidents.first(1).map(\.string) == ["real"])
        // And nothing forged was kept for whoever subscribes next.
        let later = try await login("operator", on: broker)
        let retained = try await later.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        #expect(try await retained.first(1).map(\.string) == ["real"])
        for client in [notifier, alice, watchdog, later] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test(arguments: ["notifier", "web", "operator"])
    func theNotifierWebAndOperatorsReadIncidents(user: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let reader = try await login(user, on: broker)
        let incidents = try await reader.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/_incidents/alice", string: Self.duress, retain: true)
        #expect(try await incidents.first(1).map(\.string) == [Self.duress])
        for client in [reader, watchdog] { await client.shutdown() }
        await broker.shutdown()
    }
}
