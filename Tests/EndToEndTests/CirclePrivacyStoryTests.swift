import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Who sees an incident in the circle, on the real broker with the project's ACL and the real
/// executables: only the walker's SOS contacts. Everyone else near her in the circle, and someone
/// in nobody's circle, subscribes every way they can and reads nothing of it.
@Suite("End to end: the circle keeps an incident to the SOS contacts", .serialized)
struct CirclePrivacyStoryTests {
    static let filters = ["#", "safewalk/#", "safewalk/+/shared/+", "safewalk/alice/#", "safewalk/+/inbox"]

    /// alice's circle: bob her SOS contact (the positive control), dave who follows her, carol whom
    /// she follows without the mark, frank whose mark she took off before; eve knows nobody.
    @Test func onlyTheSOSContactSeesTheIncidentOrWhereTheWalkerIs() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol", "dave", "frank", "eve"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        var others: [String: CirclePhone] = [:]
        for name in ["dave", "carol", "frank", "eve"] { others[name] = try await world.phone(name) }
        let (dave, carol, frank) = try (#require(others["dave"]), #require(others["carol"]), #require(others["frank"]))
        try await alice.follow(bob)
        try await alice.perform(.sos, "bob")
        try await dave.follow(alice)
        try await alice.follow(carol)
        try await alice.follow(frank)
        try await alice.perform(.sos, "frank")
        try await alice.perform(.unsos, "frank")
        _ = try await alice.circle { circle in
            circle.following.filter(\.sos).map(\.user.rawValue) == ["bob"] && circle.followers.count == 1
        }

        // Every way each of them can try to read, their own topics included.
        var spies: [String: [MQTTSubscription]] = [:]
        for (name, phone) in others {
            for filter in Self.filters + ["safewalk/\(name)/#"] {
                if let subscription = try await phone.client.tryToRead(filter) {
                    spies[name, default: []].append(subscription)
                }
            }
        }

        walker.keepWalking()
        try await walker.send(.panic(.red))
        let alert = try await bob.next(.alert, from: "alice")
        let incident = try #require(alert.incident)
        let route = try await bob.views(of: "alice", count: 4, within: 30) { $0.position != nil }
        #expect(Set(route.compactMap(\.position?.lat)).count >= 2, "bob saw her move: \(route)")
        try await walker.send(.imSafe)
        try await bob.viewCleared(of: "alice")
        _ = try await bob.next(.allClear, from: "alice")
        walker.stopWalking()

        // Each one's own command, answered by the circle owner after everything above: by then
        // anything it had sent them had arrived (the answer comes last, on the same connection).
        for (name, phone) in others.sorted(by: { $0.key < $1.key }) {
            try await phone.perform(.inbox)
            var seen: [MQTTMessage] = []
            for subscription in spies[name] ?? [] { seen += await subscription.drained() }
            let leaked = seen.filter { message in
                let text = String(decoding: message.payload, as: UTF8.self)
                return message.topic.hasPrefix("safewalk/alice/") || message.topic.hasSuffix("/shared/alice")
                    || message.topic.contains("_incidents") || text.contains(incident) || text.contains("\"lat\"")
                    || text.contains("\"alert\"") || text.contains("\"allClear\"")
            }
            #expect(leaked.isEmpty, "\(name) read: \(leaked.map { "\($0.topic) \($0.string ?? "")" })")
            // The spying worked: what each may read arrived (eve's circle is empty: nothing).
            #expect(
                name == "eve" || seen.contains { $0.topic == "safewalk/\(name)/circle" },
                "\(name): \(seen.map(\.topic))")
        }
        await walker.leave(); await bob.leave()
        for phone in others.values { await phone.leave() }
        await world.stop()
    }
}
