import Foundation
import SafeWalkMQTT
import TestSupport
import Testing

/// `owntracks/{user}/{device}/cmd` reconfigures a walker's OwnTracks app: on the real broker with
/// the project's ACL, location-ingest writes it, the walker reads their own, and another walker
/// can neither read it nor write it.
@Suite("Broker ACL: OwnTracks commands are location-ingest's, for the walker's own devices", .holdsResources)
struct OwnTracksCommandPrivacyTests {
    static let users = ["alice": "alice-pw", "bob": "bob-pw", "location-ingest": "ingest-pw"]
    static let move =
        #"{"_type":"cmd","action":"setConfiguration","configuration":{"_type":"configuration","monitoring":2}}"#

    func login(_ user: String, on broker: MosquittoBroker) async throws -> MQTTClient {
        try await broker.client("\(user)-\(UUID().uuidString.prefix(6))", username: user, password: Self.users[user])
    }

    @Test func locationIngestCommandsAlicesPhoneAndOnlyAliceReadsIt() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let alice = try await login("alice", on: broker)
        let bob = try await login("bob", on: broker)
        let ingest = try await login("location-ingest", on: broker)
        let mine = try await alice.subscribe("owntracks/alice/+/cmd", qos: .atLeastOnce)
        // Bob tries to read Alice's commands every way he can; the broker may refuse outright or
        // accept and deliver nothing.
        var spies: [MQTTSubscription] = []
        for filter in ["owntracks/alice/phone/cmd", "owntracks/alice/+/cmd", "owntracks/+/+/cmd", "owntracks/#", "#"] {
            do {
                spies.append(try await bob.subscribe(filter, qos: .atLeastOnce))
            } catch MQTTError.subscriptionRefused {}
        }
        // Bob's forgery is handled before location-ingest's command (same broker, sent first): had
        // it passed, Alice would have received it first.
        try await bob.publish("owntracks/alice/phone/cmd", string: #"{"_type":"cmd","action":"reportLocation"}"#)
        try await ingest.publish("owntracks/alice/phone/cmd", string: Self.move)
        #expect(try await mine.first(1).map(\.string) == [Self.move])
        // Bob's own marker, after everything: delivery to him happened, and nothing of Alice's came.
        let marker = try await bob.subscribe("owntracks/bob/+/cmd", qos: .atLeastOnce)
        try await ingest.publish("owntracks/bob/phone/cmd", string: "marker")
        #expect(try await marker.first(1).map(\.string) == ["marker"])
        for spy in spies {
            let seen = await spy.drained().map(\.topic)
            #expect(!seen.contains { $0.hasPrefix("owntracks/alice/") }, "bob read alice's commands: \(seen)")
        }
        for client in [alice, bob, ingest] { await client.shutdown() }
        await broker.shutdown()
    }
}
