import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The circle day to day (docs/CONTRACT.md, "The circle"), one story per use case, on the five
/// real executables and the secured broker: following with consent, check-in requests, home
/// safe. Every user on their own phone, logged in as themselves, seeing the circle only on topics
/// under their own id. Timeouts are shortened by configuration, never slept through. When someone
/// needs help: CircleStoryIncidentTests; who may see it: CirclePrivacyStoryTests.
@Suite("End to end: the circle", .serialized)
struct CircleStoryTests {
    /// alice asks to follow bob, bob sees the request and accepts; every way of getting it wrong
    /// is answered with its own code, never silence.
    @Test func followingNeedsConsentAndEveryMistakeHasItsCode() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let alice = try await world.phone("alice")
        let bob = try await world.phone("bob")
        let carol = try await world.phone("carol")

        try await alice.perform(.follow, " bob ")  // the app's trailing spaces are not part of the name
        let request = try await bob.next(.followRequest, from: "alice")
        #expect(request.text == "alice wants to follow you.")
        _ = try await bob.circle { $0.requestsIn.map(\.user.rawValue) == ["alice"] }
        _ = try await alice.circle { $0.requestsOut.map(\.user.rawValue) == ["bob"] }
        #expect(try await alice.refusal(.follow, "bob") == .alreadyRequested)

        try await bob.perform(.accept, "alice")
        _ = try await alice.next(.followAccepted, from: "bob")
        let circle = try await alice.circle { !$0.following.isEmpty }
        #expect(circle.following.map(\.user.rawValue) == ["bob"] && circle.requestsOut.isEmpty)
        #expect(circle.following.first?.sos == false)
        _ = try await bob.circle { $0.followers.map(\.user.rawValue) == ["alice"] && $0.requestsIn.isEmpty }

        #expect(try await alice.refusal(.follow, "bobby") == .unknownUser)
        #expect(try await alice.refusal(.follow, "alice") == .followingYourself)
        #expect(try await alice.refusal(.follow, "BOB") == .alreadyFollowing)  // names match in any case
        #expect(try await bob.refusal(.accept, "carol") == .noRequest)
        #expect(try await bob.refusal(.deny, "carol") == .noRequest)

        try await carol.perform(.follow, "bob")
        _ = try await bob.next(.followRequest, from: "carol")
        try await bob.perform(.deny, "carol")
        let denied = try await carol.next(.followDenied, from: "bob")
        #expect(denied.text == "bob did not accept your request to follow them.")
        _ = try await carol.circle { $0.requestsOut.isEmpty && $0.following.isEmpty }
        #expect(try await bob.refusal(.accept, "carol") == .noRequest)
        for phone in [alice, bob, carol] { await phone.leave() }
        await world.stop()
    }

    /// alice asks bob to check in; his answer tells every follower (carol too) when he did.
    @Test func aCheckInRequestIsAnsweredForEveryFollower() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let alice = try await world.phone("alice")
        let bob = try await world.phone("bob")
        let carol = try await world.phone("carol")
        try await alice.follow(bob)
        try await carol.follow(bob)

        #expect(try await alice.perform(.checkInRequest, "bob").count == 1)
        let asked = try await bob.next(.checkInRequest, from: "alice")
        #expect(asked.text == "alice asks: are you OK? Tap to check in.")
        _ = try await bob.circle { $0.checkInRequests.map(\.user.rawValue) == ["alice"] }
        _ = try await alice.circle { $0.asked.map(\.user.rawValue) == ["bob"] }

        try await bob.perform(.checkIn)
        for follower in [alice, carol] {
            let checked = try await follower.next(.checkedIn, from: "bob")
            #expect(checked.text == "bob checked in safe at \(clock(checked.at)).", "\(checked.text)")
            let circle = try await follower.circle { $0.following.first?.checkedInAt != nil }
            #expect(circle.following.first?.checkedInAt == checked.at && circle.asked.isEmpty)
        }
        _ = try await bob.circle { $0.checkInRequests.isEmpty }
        for phone in [alice, bob, carol] { await phone.leave() }
        await world.stop()
    }

    /// bob lets his SOS contacts see where he was when he misses their check-in request, and made
    /// alice one: after the (shortened) timeout she sees his last position and he learns she saw
    /// it. carol, who follows him too but is not his SOS contact, is shown nothing.
    @Test func aMissedCheckInRequestShowsTheLastPositionOnlyToAnSOSContactOfAUserWhoOptedIn() async throws {
        let world = try await CircleWorld.start(
            members: ["alice", "bob", "carol"], ["SAFEWALK_CHECKIN_REQUEST_TIMEOUT": "2"])
        let walker = try await Walker("bob", on: world.stack)
        let bob = try await CirclePhone("bob", client: walker.phone)
        let alice = try await world.phone("alice")
        let carol = try await world.phone("carol")
        try await alice.follow(bob)
        try await carol.follow(bob)
        try await bob.follow(alice, sos: true)  // alice is bob's SOS contact
        try await bob.perform(.revealOnMissedCheckIn, on: true)
        _ = try await bob.circle { $0.revealOnMissedCheckIn }
        // The circle owner reads bob's positions from now on (his circle says so).
        walker.step(metres: 100)
        try await walker.sendFix()

        // carol asks first: when alice's request is due, carol's was due too.
        try await carol.perform(.checkInRequest, "bob")
        try await alice.perform(.checkInRequest, "bob")
        let lastKnown = try await alice.next(.lastKnown, from: "bob")
        let position = try #require(lastKnown.position)
        #expect(position.lat > 30.2849 + 100 / 111_195 - 1e-6, "\(position)")
        let seen = try await bob.next(.seen, from: "alice")
        #expect(seen.text.hasPrefix("alice was shown your last known position"), "\(seen.text)")

        // Everything carol's inbox ever got, sent again: no position, and her request stays open.
        let replay = try await carol.replayInbox()
        #expect(!replay.events.contains { $0.type == .lastKnown || $0.position != nil }, "\(replay.events)")
        _ = try await carol.circle { $0.asked.map(\.user.rawValue) == ["bob"] }
        await walker.leave()
        for phone in [alice, carol] { await phone.leave() }
        await world.stop()
    }

    /// "Home safe" shows bob's followers a house with its time, and goes by itself when it
    /// expires (here after about two seconds).
    @Test func homeSafeShowsFollowersUntilItExpires() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob"], ["SAFEWALK_HOME_SAFE_HOURS": "0.0006"])
        let alice = try await world.phone("alice")
        let bob = try await world.phone("bob")
        try await alice.follow(bob)

        try await bob.perform(.homeSafe)
        let home = try await alice.next(.homeSafe, from: "bob")
        let until = try #require(home.until)
        #expect(abs(until - home.at - 0.0006 * 3600) < 0.01, "\(home)")
        #expect(home.text.hasPrefix("bob is home safe"), "\(home.text)")
        let shown = try await alice.circle { $0.following.first?.homeSafe != nil }
        #expect(shown.following.first?.homeSafe?.until == until)
        _ = try await bob.circle { $0.homeSafe?.until == until }

        // Republished without it once it has expired: waiting for a message, not a sleep.
        let gone = try await alice.circle { $0.following.first?.homeSafe == nil }
        #expect(Walker.now >= until - 0.5, "the house went before its time")
        #expect(gone.following.map(\.user.rawValue) == ["bob"])
        _ = try await bob.circle { $0.homeSafe == nil }
        await alice.leave(); await bob.leave()
        await world.stop()
    }

    /// A walk that ends as `arrived` is "home safe" too: the watchdog's `_arrivals/{w}` reaches
    /// the circle owner, and bob's followers see the house without his saying so.
    @Test func aWalkThatEndsArrivedIsHomeSafeForFollowers() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob"])
        let walker = try await Walker("bob", on: world.stack)
        let bob = try await CirclePhone("bob", client: walker.phone)
        let alice = try await world.phone("alice")
        try await alice.follow(bob)

        try await walker.send(.startWalk(destination: "Home", minutes: 20))
        try await walker.send(.arrived)
        let home = try await alice.next(.homeSafe, from: "bob")
        let until = try #require(home.until)
        #expect(abs(until - home.at - 12 * 3600) < 1, "the default 12 hours: \(home)")
        _ = try await alice.circle { $0.following.first?.homeSafe?.until == until }
        _ = try await bob.circle { $0.homeSafe?.until == until }
        await walker.leave(); await alice.leave()
        await world.stop()
    }

    // MARK: Helpers

    /// `14:05 UTC`, as the inbox writes a time.
    func clock(_ at: EpochSeconds) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: at)) + " UTC"
    }
}
