import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// `_members/{w}` tells the circle owner who has an account, so `follow` can refuse a name nobody
/// holds. On the real broker with the project's ACL only `web` writes it (a walker cannot forge
/// an account nor clear someone's), and a walker cannot read who has an account.
@Suite("Broker ACL: the member directory is web's, for contacts-store", .holdsResources)
struct MemberTopicPrivacyTests {
    static let users = [
        "alice": "alice-pw", "bob": "bob-pw", "watchdog": "watchdog-pw", "notifier": "notifier-pw",
        "web": "web-pw", "operator": "operator-pw", "location-ingest": "ingest-pw", "companion-chat": "chat-pw",
        "contacts-store": "contacts-pw", "channel-example": "channel-pw",
    ]
    static func record(_ user: String) -> String { #"{"since":1760000000,"user":"\#(user)","v":1}"# }

    func login(_ user: String, on broker: MosquittoBroker) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: Self.users[user])
    }

    @Test func onlyWebWritesAMemberAWalkerCanNeitherForgeOneNorClearOne() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let web = try await login("web", on: broker)
        try await web.publish("safewalk/_members/bob", string: Self.record("bob"), retain: true)
        let contacts = try await login("contacts-store", on: broker)
        let members = try await contacts.subscribe("safewalk/_members/+", qos: .atLeastOnce)
        #expect(try await members.first(1).map(\.string) == [Self.record("bob")])

        // A forged account, a forged record of one's own, bob's cleared: none may pass, and no
        // service but web may write either.
        let alice = try await login("alice", on: broker)
        try await alice.publish("safewalk/_members/x", string: Self.record("x"), retain: true)
        try await alice.publish("safewalk/_members/alice", string: Self.record("alice"), retain: true)
        try await alice.publish("safewalk/_members/bob", payload: Data(), retain: true)
        var others: [MQTTClient] = []
        for service in ["watchdog", "notifier", "contacts-store", "operator"] {
            let other = try await login(service, on: broker)
            try await other.publish("safewalk/_members/y", string: Self.record("y"), retain: true)
            others.append(other)
        }
        try await web.publish("safewalk/_members/carol", string: Self.record("carol"), retain: true)
        // Everything before web's was handled first: had any passed, it would have arrived first.
        #expect(try await members.first(1).map(\.topic) == ["safewalk/_members/carol"])

        // And what stays for whoever subscribes next is web's alone.
        let later = try await login("contacts-store", on: broker)
        let retained = try await later.subscribe("safewalk/_members/+", qos: .atLeastOnce)
        #expect(
            Set(try await retained.first(2).map(\.topic)) == ["safewalk/_members/bob", "safewalk/_members/carol"])
        try await web.publish("safewalk/_members/zz-marker", string: "marker")
        #expect(try await retained.first(1).map(\.string) == ["marker"])
        for client in [web, contacts, alice, later] + others { await client.shutdown() }
        await broker.shutdown()
    }

    /// A walker subscribes every way it can while web publishes its own record and another's; a
    /// marker sent after both proves delivery happened: nothing of `_members` may have arrived.
    @Test(arguments: ["alice", "bob"])
    func aWalkerCannotReadWhoHasAnAccount(user: String) async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let web = try await login("web", on: broker)
        try await web.publish("safewalk/_members/\(user)", string: Self.record(user), retain: true)
        let spy = try await login(user, on: broker)
        var spies: [MQTTSubscription] = []
        for filter in ["#", "safewalk/#", "safewalk/_members/+", "safewalk/_members/\(user)", "safewalk/+/\(user)"] {
            do {
                spies.append(try await spy.subscribe(filter, qos: .atLeastOnce))
            } catch MQTTError.subscriptionRefused {
                continue
            }
        }
        let markers = try await spy.subscribe("safewalk/\(user)/chat", qos: .atLeastOnce)
        try await web.publish("safewalk/_members/carol", string: Self.record("carol"), retain: true)
        let chat = try await login("companion-chat", on: broker)
        try await chat.publish("safewalk/\(user)/chat", string: "marker")
        #expect(try await markers.first(1).map(\.string) == ["marker"])
        for subscription in spies {
            let seen = await subscription.drained().map(\.topic)
            #expect(!seen.contains { $0.contains("_members") }, "\(user) read the member directory: \(seen)")
        }
        for client in [web, spy, chat] { await client.shutdown() }
        await broker.shutdown()
    }
}
