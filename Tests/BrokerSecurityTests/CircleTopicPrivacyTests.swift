import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// The circle's walker topics on the real broker with the project's ACL: a user reads their own
/// `circle`, `circle/result`, `inbox` and `shared/+`, written only by the circle owner
/// (contacts-store), and writes only their own `circle/cmd`; never another user's.
@Suite("Broker ACL: each user's circle is their own", .holdsResources)
struct CircleTopicPrivacyTests {
    static let users = [
        "alice": "alice-pw", "bob": "bob-pw", "carol": "carol-pw", "contacts-store": "contacts-pw",
        "operator": "operator-pw",
    ]

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

    /// The circle owner writes bob's circle topics (retained ones before alice subscribes, the
    /// rest after), then alice's inbox: that marker proves delivery happened, and nothing of
    /// bob's may have reached her before it.
    @Test(arguments: [
        "safewalk/bob/circle", "safewalk/bob/circle/result", "safewalk/bob/inbox", "safewalk/bob/shared/+",
        "safewalk/bob/shared/carol", "safewalk/bob/circle/#", "safewalk/+/circle", "safewalk/+/circle/result",
        "safewalk/+/inbox", "safewalk/+/shared/+", "safewalk/+/shared/#", "safewalk/bob/#", "#",
    ])
    func aUserCannotReadAnothersCircle(filter: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let owner = try await login("contacts-store", on: broker)
        try await owner.publish("safewalk/bob/circle", string: "bob's circle", retain: true)
        try await owner.publish("safewalk/bob/shared/carol", string: "carol for bob", retain: true)
        let alice = try await login("alice", on: broker)
        let spying = try await tryToRead(filter, on: alice)
        let own = try await alice.subscribe("safewalk/alice/inbox", qos: .atLeastOnce)
        try await owner.publish("safewalk/bob/circle", string: "bob's circle again", retain: true)
        try await owner.publish("safewalk/bob/circle/result", string: "bob's answer")
        try await owner.publish("safewalk/bob/inbox", string: "bob's event")
        try await owner.publish("safewalk/bob/shared/carol", string: "carol for bob again", retain: true)
        try await owner.publish("safewalk/alice/inbox", string: "alice's event")
        #expect(try await own.first(1).map(\.string) == ["alice's event"])
        if let spying {
            let leaked = await spying.drained().map(\.topic)
            #expect(leaked.allSatisfy { $0.hasPrefix("safewalk/alice/") }, "leaked: \(leaked)")
        }
        for client in [owner, alice] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func aUserReadsTheirOwnCircleTopics() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let owner = try await login("contacts-store", on: broker)
        let alice = try await login("alice", on: broker)
        let own = try await alice.subscribe("safewalk/alice/#", qos: .atLeastOnce)
        let topics = [
            "safewalk/alice/circle", "safewalk/alice/circle/result", "safewalk/alice/inbox",
            "safewalk/alice/shared/bob",
        ]
        for topic in topics { try await owner.publish(topic, string: "for alice") }
        #expect(try await own.first(topics.count).map(\.topic) == topics)
        for client in [owner, alice] { await client.shutdown() }
        await broker.shutdown()
    }

    /// A command on another's `circle/cmd` would act as them (follow, accept, sos, ack): it must
    /// never reach the circle owner. Nor may a user forge what the circle owner writes.
    @Test func aUserWritesOnlyTheirOwnCommandsAndNothingTheCircleOwnerWrites() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let owner = try await login("contacts-store", on: broker)
        let commands = try await owner.subscribe("safewalk/+/circle/cmd", qos: .atLeastOnce)
        let bob = try await login("bob", on: broker)
        let bobsView = try await bob.subscribe("safewalk/bob/#", qos: .atLeastOnce)
        let alice = try await login("alice", on: broker)
        try await alice.publish("safewalk/bob/circle/cmd", string: "forged as bob")
        try await alice.publish("safewalk/bob/inbox", string: "forged event")
        try await alice.publish("safewalk/bob/shared/alice", string: "forged view", retain: true)
        try await alice.publish("safewalk/bob/circle", string: "forged circle", retain: true)
        try await alice.publish("safewalk/alice/circle", string: "forged own circle", retain: true)
        try await alice.publish("safewalk/alice/circle/cmd", string: "alice's own")
        // One publisher, in order: had the forgery passed, it would have arrived first.
        #expect(try await commands.first(1).map(\.string) == ["alice's own"])
        try await owner.publish("safewalk/bob/inbox", string: "real event")
        #expect(try await bobsView.first(1).map(\.string) == ["real event"])

        // And nothing forged was kept for whoever subscribes next: bob's and alice's retained
        // topics, then a marker of the circle owner's to each.
        var later: [MQTTClient] = []
        for user in ["bob", "alice"] {
            let client = try await login(user, on: broker)
            let mine = try await client.subscribe("safewalk/\(user)/#", qos: .atLeastOnce)
            try await owner.publish("safewalk/\(user)/inbox", string: "marker")
            #expect(try await mine.first(1).map(\.string) == ["marker"], "\(user) was kept a forgery")
            later.append(client)
        }
        for client in [owner, bob, alice] + later { await client.shutdown() }
        await broker.shutdown()
    }
}
