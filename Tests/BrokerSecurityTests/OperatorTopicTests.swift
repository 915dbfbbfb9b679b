import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// The broker's `operator` login (dashboards, `mosquitto_sub`) since issue 21: on the real broker
/// with the project's ACL it reads no walker input (fixes, replies, presence, contact requests)
/// and no position at all, OwnTracks' included. The monitoring desk shows a position only during
/// an incident, to an operator signed in at `/ops`, and records the look; a broker login that read
/// every position would undo that. It still reads what the desk's work is about: incidents,
/// ladders and statuses.
@Suite("Broker ACL: operators read incidents, never positions or walker input", .holdsResources)
struct OperatorTopicTests {
    static let users = [
        "alice": "alice-pw", "watchdog": "watchdog-pw", "notifier": "notifier-pw", "location-ingest": "ingest-pw",
        "operator": "operator-pw",
    ]

    func login(_ user: String, on broker: MosquittoBroker) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: Self.users[user])
    }

    /// Each topic the operator must not read, and who may write it.
    static let hidden: [(topic: String, writer: String)] = [
        ("safewalk/alice/fix", "alice"),
        ("safewalk/alice/position", "location-ingest"),
        ("safewalk/alice/reply", "alice"),
        ("safewalk/alice/presence", "alice"),
        ("safewalk/alice/contacts/add", "alice"),
        ("owntracks/alice/phone", "alice"),
        ("owntracks/alice/phone/cmd", "location-ingest"),
    ]

    /// The operator subscribes every way it can after one retained message was published and
    /// before another; the watchdog's status, sent after both and read on the same connection,
    /// proves delivery happened: nothing of the hidden topic may have arrived before it.
    @Test(arguments: OperatorTopicTests.hidden.map(\.topic))
    func theOperatorReadsNoWalkerInputNorAnyPosition(topic: String) async throws {
        let writerName = try #require(Self.hidden.first { $0.topic == topic }?.writer)
        let broker = try await SecuredBroker.start(users: Self.users)
        let writer = try await login(writerName, on: broker)
        try await writer.publish(topic, string: "retained \(topic)", retain: true)
        let spy = try await login("operator", on: broker)
        var spies: [MQTTSubscription] = []
        for filter in ["#", "safewalk/#", "owntracks/#", "safewalk/+/+", "owntracks/+/+", "owntracks/+/+/+", topic] {
            do {
                spies.append(try await spy.subscribe(filter, qos: .atLeastOnce))
            } catch MQTTError.subscriptionRefused {
                continue
            }
        }
        let markers = try await spy.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        try await writer.publish(topic, string: "live \(topic)")
        let watchdog = try await login("watchdog", on: broker)
        try await watchdog.publish("safewalk/alice/status", string: "marker")
        #expect(try await markers.first(1).map(\.string) == ["marker"])
        for subscription in spies {
            let seen = await subscription.drained().map(\.topic)
            #expect(!seen.contains(topic), "the operator read \(topic): \(seen)")
        }
        for client in [writer, spy, watchdog] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func theOperatorStillReadsIncidentsLaddersAndStatuses() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let operatorView = try await login("operator", on: broker)
        let incidents = try await operatorView.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        let ladders = try await operatorView.subscribe("safewalk/_ladder/+", qos: .atLeastOnce)
        let statuses = try await operatorView.subscribe("safewalk/+/status", qos: .atLeastOnce)
        let watchdog = try await login("watchdog", on: broker)
        let notifier = try await login("notifier", on: broker)
        try await watchdog.publish("safewalk/_incidents/alice", string: "incident", retain: true)
        try await notifier.publish("safewalk/_ladder/alice", string: "ladder", retain: true)
        try await watchdog.publish("safewalk/alice/status", string: "status", retain: true)
        #expect(try await incidents.first(1).map(\.string) == ["incident"])
        #expect(try await ladders.first(1).map(\.string) == ["ladder"])
        #expect(try await statuses.first(1).map(\.string) == ["status"])
        for client in [operatorView, watchdog, notifier] { await client.shutdown() }
        await broker.shutdown()
    }

    /// Each partitioned instance's own status (`_service/watchdog/1`) reaches the operator; a
    /// service cannot speak as another's instance, nor a walker as any.
    @Test func theOperatorReadsEachInstancesStatusAndOnlyItsServiceWritesIt() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let operatorView = try await login("operator", on: broker)
        let statuses = try await operatorView.subscribe("safewalk/_service/+/#", qos: .atLeastOnce)
        let watchdog = try await login("watchdog", on: broker)
        let notifier = try await login("notifier", on: broker)
        let alice = try await login("alice", on: broker)
        try await notifier.publish("safewalk/_service/watchdog/0", string: "forged by notifier", retain: true)
        try await alice.publish("safewalk/_service/watchdog/0", string: "forged by alice", retain: true)
        try await watchdog.publish("safewalk/_service/watchdog/1", string: "online", retain: true)
        try await notifier.publish("safewalk/_service/notifier", string: "online", retain: true)
        let seen = try await statuses.first(2).map { "\($0.topic) \($0.string ?? "")" }
        #expect(Set(seen) == ["safewalk/_service/watchdog/1 online", "safewalk/_service/notifier online"])
        for client in [operatorView, watchdog, notifier, alice] { await client.shutdown() }
        await broker.shutdown()
    }
}
