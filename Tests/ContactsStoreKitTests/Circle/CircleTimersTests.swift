import SafeWalkCore
import Testing

@testable import ContactsStoreKit

/// Missed check-in requests and "home safe" expiry on a virtual clock.
@Suite struct CircleTimersTests {
    let settings = CircleSettings()

    /// bob follows alice and made her an SOS contact; alice follows bob and asks him to check in.
    func asked(reveal: Bool, aliceIsSOS: Bool = true) -> CircleWorld {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob")
        world.connect("bob", to: "alice", sos: aliceIsSOS)
        if reveal { world.run("bob", .revealOnMissedCheckIn, on: true) }
        world.graph.positions[user("bob")] = SharedPosition(lat: 30.28, lon: -97.73, acc: 8, tst: world.now - 30)
        world.graph.states[user("bob")] = .checking
        world.run("alice", .checkInRequest, "bob")
        return world
    }

    @Test func nothingIsDueBeforeTheTimeout() {
        let world = asked(reveal: true)
        #expect(CircleTimers.nextDeadline(in: world.graph, settings: settings) == world.now + 300)
        #expect(CircleTimers.due(in: world.graph, settings: settings, now: world.now + 299.999).mutations.isEmpty)
    }

    @Test func aMissedRequestShowsTheLastKnownPositionAndTellsWhoSawIt() {
        var world = asked(reveal: true)
        let due = CircleTimers.due(in: world.graph, settings: settings, now: world.now + 300)
        let shown = due.events(to: "alice")
        #expect(shown.map(\.type) == [.lastKnown])
        #expect(shown.first?.position?.lat == 30.28)
        #expect(shown.first?.status == .checking)
        #expect(due.events(to: "bob").map(\.type) == [.seen])
        world.graph.apply(due.mutations)
        #expect(CircleTimers.due(in: world.graph, settings: settings, now: world.now + 900).deliveries.isEmpty)
        #expect(world.graph.checkIns[user("bob")]?[user("alice")] != nil)  // still open until bob checks in
    }

    @Test func offByDefault() {
        let world = asked(reveal: false)
        let due = CircleTimers.due(in: world.graph, settings: settings, now: world.now + 300)
        #expect(due.deliveries.isEmpty)
        #expect(!due.mutations.isEmpty)  // the request is marked, so it does not fire again
    }

    @Test func onlyForSOSContacts() {
        let world = asked(reveal: true, aliceIsSOS: false)
        #expect(CircleTimers.due(in: world.graph, settings: settings, now: world.now + 300).deliveries.isEmpty)
    }

    @Test func theTimeoutIsASetting() {
        var short = settings
        short.checkInRequestTimeout = 2
        let world = asked(reveal: true)
        #expect(CircleTimers.nextDeadline(in: world.graph, settings: short) == world.now + 2)
        #expect(CircleTimers.due(in: world.graph, settings: short, now: world.now + 2).deliveries.count == 2)
    }

    @Test func homeSafeEndsByItselfAndRepublishesFollowersCircles() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob")
        world.run("bob", .homeSafe)
        let until = world.now + 12 * 3600
        #expect(CircleTimers.nextDeadline(in: world.graph, settings: settings) == until)
        #expect(CircleTimers.due(in: world.graph, settings: settings, now: until - 1).mutations.isEmpty)
        let expired = CircleTimers.due(in: world.graph, settings: settings, now: until)
        #expect(expired.touched == [user("alice"), user("bob")])
        world.graph.apply(expired.mutations)
        #expect(world.graph.homeSafe.isEmpty)
        #expect(CircleTimers.nextDeadline(in: world.graph, settings: settings) == nil)
    }
}
