import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// The monitoring desk's topics (issue 21) on the real broker with the project's ACL.
/// `_desk/close` ends a walker's incident without a PIN, so only `web` (for an operator signed in
/// at `/ops`) may write it and only the watchdog reads it. `{w}/desk` tells a walker who of the
/// desk looked at their alert: theirs alone to read, and only `web` may write one, so nobody can
/// forge a notice to themselves or to anyone else.
@Suite("Broker ACL: the desk's close and notices", .holdsResources)
struct DeskTopicPrivacyTests {
    static let users = [
        "alice": "alice-pw", "bob": "bob-pw", "watchdog": "watchdog-pw", "notifier": "notifier-pw",
        "web": "web-pw", "operator": "operator-pw", "location-ingest": "ingest-pw", "companion-chat": "chat-pw",
        "contacts-store": "contacts-pw", "channel-example": "channel-pw",
    ]
    static let close =
        #"{"at":1760000400,"id":"d1","incident":"e1","operator":"olga","reason":"resolved","v":1,"walker":"alice"}"#

    /// Every login but `web`, walkers and services alike.
    static let everyoneButWeb = users.keys.filter { $0 != "web" }.sorted()

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

    @Test func onlyWebCanCloseAnIncidentFromTheDesk() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let watchdog = try await login("watchdog", on: broker)
        let closes = try await watchdog.subscribe("safewalk/_desk/close", qos: .atLeastOnce)
        var forgers: [MQTTClient] = []
        for user in Self.everyoneButWeb {
            let forger = try await login(user, on: broker)
            try await forger.publish("safewalk/_desk/close", string: "forged by \(user)")
            forgers.append(forger)
        }
        let web = try await login("web", on: broker)
        try await web.publish("safewalk/_desk/close", string: Self.close)
        // Every forgery was handled before web's close: had one passed, it would have come first.
        #expect(try await closes.first(1).map(\.string) == [Self.close])
        let seen = await closes.drained().map(\.string)
        #expect(seen.isEmpty, "a forged close reached the watchdog: \(seen)")
        for client in [watchdog, web] + forgers { await client.shutdown() }
        await broker.shutdown()
    }

    /// For each login but the watchdog, a topic it may read and who writes it: the marker that
    /// proves delivery happened.
    static let markers: [String: (topic: String, writer: String)] = [
        "alice": ("safewalk/alice/chat", "companion-chat"),
        "bob": ("safewalk/bob/chat", "companion-chat"),
        "web": ("safewalk/_desk/result", "watchdog"),
        "operator": ("safewalk/alice/status", "watchdog"),
        "notifier": ("safewalk/alice/escalation", "watchdog"),
        "location-ingest": ("safewalk/alice/fix", "alice"),
        "companion-chat": ("safewalk/alice/prompt", "watchdog"),
        "contacts-store": ("safewalk/alice/contacts/add", "alice"),
        "channel-example": ("safewalk/alice/escalation", "watchdog"),
    ]

    /// Only the watchdog reads a close (which names a walker and may carry an operator's note):
    /// every other login subscribes every way it can; its marker, sent after web's close, proves
    /// delivery happened.
    @Test(arguments: DeskTopicPrivacyTests.markers.keys.sorted())
    func onlyTheWatchdogReadsTheDesksCloses(user: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let spy = try await login(user, on: broker)
        var spies: [MQTTSubscription] = []
        for filter in ["#", "safewalk/#", "safewalk/_desk/+", "safewalk/_desk/close"] {
            if let subscription = try await tryToRead(filter, on: spy) { spies.append(subscription) }
        }
        let marker = try #require(Self.markers[user])
        let markers = try await spy.subscribe(marker.topic, qos: .atLeastOnce)
        let web = try await login("web", on: broker)
        try await web.publish("safewalk/_desk/close", string: Self.close)
        let writer = try await login(marker.writer, on: broker)
        try await writer.publish(marker.topic, string: "marker")
        #expect(try await markers.first(1).map(\.string) == ["marker"])
        for subscription in spies {
            let seen = await subscription.drained().map(\.topic)
            #expect(!seen.contains("safewalk/_desk/close"), "\(user) read a desk close: \(seen)")
        }
        for client in [spy, web, writer] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func aWalkerReadsItsOwnDeskNoticesAndNobodyElses() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let alice = try await login("alice", on: broker)
        let own = try await alice.subscribe("safewalk/alice/desk", qos: .atLeastOnce)
        var spies: [MQTTSubscription] = []
        for filter in ["#", "safewalk/#", "safewalk/+/desk", "safewalk/bob/desk"] {
            if let subscription = try await tryToRead(filter, on: alice) { spies.append(subscription) }
        }
        let web = try await login("web", on: broker)
        try await web.publish("safewalk/bob/desk", string: "bob's notice")
        try await web.publish("safewalk/alice/desk", string: "alice's notice")
        #expect(try await own.first(1).map(\.string) == ["alice's notice"])
        for subscription in spies {
            let seen = await subscription.drained().map(\.topic)
            #expect(!seen.contains("safewalk/bob/desk"), "alice read bob's notice: \(seen)")
        }
        for client in [alice, web] { await client.shutdown() }
        await broker.shutdown()
    }

    /// A forged "the desk looked at your alert" would be a lie told to the walker: nobody but
    /// `web` may write one, not to themselves, not to anyone else.
    @Test func onlyWebWritesDeskNotices() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let aliceReads = try await login("alice", on: broker)
        let alices = try await aliceReads.subscribe("safewalk/alice/desk", qos: .atLeastOnce)
        let bobReads = try await login("bob", on: broker)
        let bobs = try await bobReads.subscribe("safewalk/bob/desk", qos: .atLeastOnce)
        var forgers: [MQTTClient] = []
        for user in Self.everyoneButWeb {
            let forger = try await login(user, on: broker)
            try await forger.publish("safewalk/alice/desk", string: "forged by \(user)", retain: true)
            try await forger.publish("safewalk/bob/desk", string: "forged by \(user)", retain: true)
            forgers.append(forger)
        }
        let web = try await login("web", on: broker)
        try await web.publish("safewalk/alice/desk", string: "web to alice")
        try await web.publish("safewalk/bob/desk", string: "web to bob")
        #expect(try await alices.first(1).map(\.string) == ["web to alice"])
        #expect(try await bobs.first(1).map(\.string) == ["web to bob"])
        // Nothing forged was kept either, for whoever subscribes next.
        let later = try await login("alice", on: broker)
        let retained = try await later.subscribe("safewalk/alice/desk", qos: .atLeastOnce)
        try await web.publish("safewalk/alice/desk", string: "marker")
        #expect(try await retained.first(1).map(\.string) == ["marker"])
        for client in [aliceReads, bobReads, web, later] + forgers { await client.shutdown() }
        await broker.shutdown()
    }
}
