import SafeWalkCore
import Testing

@testable import ContactsStoreKit

/// The command rules, pure: each alternate scenario of the seed is a clear error code.
@Suite struct CircleRulesTests {
    @Test func followNeedsConsentAndTellsBothSides() {
        var world = CircleWorld(members: ["alice", "bob"])
        let asked = world.run("alice", .follow, "bob")
        #expect(asked.result?.ok == true)
        #expect(asked.events(to: "bob").map(\.type) == [.followRequest])
        #expect(world.graph.link(user("alice"), follows: user("bob")) == nil)  // not before bob says yes
        #expect(asked.touched == [user("alice"), user("bob")])
        let accepted = world.run("bob", .accept, "alice")
        #expect(accepted.result?.ok == true)
        #expect(accepted.events(to: "alice").map(\.type) == [.followAccepted])
        #expect(world.graph.link(user("alice"), follows: user("bob"))?.sos == false)
        #expect(world.graph.requestsOut.isEmpty)
    }

    @Test func namesAreTrimmedAndMatchedRegardlessOfCase() {
        var world = CircleWorld(members: ["alice", "Bob"])
        // The intake trims; the rules match case-insensitively to the account's own spelling.
        let decision = world.run("alice", .follow, "bob")
        #expect(decision.result?.ok == true)
        #expect(decision.events(to: "Bob").count == 1)
    }

    @Test func everyAlternateScenarioIsAClearError() {
        var world = CircleWorld(members: ["alice", "bob", "carol"])
        #expect(world.run("alice", .follow, "zed").code == .unknownUser)
        #expect(world.run("alice", .follow, "alice").code == .followingYourself)
        #expect(world.run("alice", .follow).code == .invalidCommand)
        world.run("alice", .follow, "bob")
        #expect(world.run("alice", .follow, "bob").code == .alreadyRequested)
        world.run("bob", .accept, "alice")
        #expect(world.run("alice", .follow, "bob").code == .alreadyFollowing)
        #expect(world.run("bob", .accept, "carol").code == .noRequest)
        #expect(world.run("bob", .deny, "carol").code == .noRequest)
        #expect(world.run("alice", .unfollow, "carol").code == .notFollowing)
        #expect(world.run("alice", .sos, "carol").code == .notFollowing)
        #expect(world.run("alice", .removeFollower, "bob").code == .notAFollower)
        #expect(world.run("carol", .checkInRequest).code == .nobodyToAsk)
        #expect(world.run("carol", .checkInRequest, "bob").code == .notFollowing)
        #expect(world.run("carol", .ack, "alice").code == .notAnSOSContact)
        #expect(world.run("alice", .revealOnMissedCheckIn).code == .invalidCommand)
    }

    @Test func ackNeedsAnOpenIncidentOfSomeoneWhoMadeYouAnSOSContact() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob", sos: true)
        #expect(world.run("bob", .ack, "alice").code == .noOpenIncident)
        world.open("alice")
        let ack = world.run("bob", .ack, "alice")
        #expect(ack.result?.ok == true)
        #expect(ack.acknowledgement?.via == .app)
        #expect(ack.acknowledgement?.user == user("bob"))
        #expect(ack.acknowledgement?.walker == user("alice"))
    }

    @Test func denyTellsTheAskerAndLinksNobody() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.run("alice", .follow, "bob")
        let denied = world.run("bob", .deny, "alice")
        #expect(denied.events(to: "alice").map(\.type) == [.followDenied])
        #expect(world.graph.link(user("alice"), follows: user("bob")) == nil)
        #expect(world.graph.requestsIn.isEmpty)
    }

    @Test func unfollowWithdrawsAPendingRequest() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.run("alice", .follow, "bob")
        #expect(world.run("alice", .unfollow, "bob").result?.ok == true)
        #expect(world.graph.requestsOut.isEmpty && world.graph.requestsIn.isEmpty)
    }

    @Test func askingAgainReplacesTheOlderCheckInRequest() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob")
        world.run("alice", .checkInRequest, "bob")
        world.now += 100
        let again = world.run("alice", .checkInRequest, "bob")
        #expect(again.result?.count == 1)
        #expect(world.graph.checkIns[user("bob")]?[user("alice")]?.at == world.now)
        #expect(world.graph.checkIns[user("bob")]?.count == 1)
    }

    @Test func aCheckInAnswersEveryRequestAndTellsEveryFollower() {
        var world = CircleWorld(members: ["alice", "bob", "carol", "dave"])
        world.connect("alice", to: "bob")
        world.connect("carol", to: "bob")
        world.connect("dave", to: "bob")
        world.run("alice", .checkInRequest, "bob")
        world.run("carol", .checkInRequest)  // everyone carol follows: bob
        let checkIn = world.run("bob", .checkIn)
        #expect(world.graph.checkIns[user("bob")] == nil)
        #expect(Set(checkIn.deliveries.map(\.to)) == [user("alice"), user("carol"), user("dave")])
        #expect(checkIn.deliveries.allSatisfy { $0.event.type == .checkedIn })
        #expect(checkIn.events(to: "dave").first?.text.hasPrefix("bob checked in safe at ") == true)
        #expect(world.graph.checkedIn[user("bob")] == world.now)
    }

    @Test func homeSafeIsSeenByFollowersUntilItExpires() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob")
        let home = world.run("bob", .homeSafe)
        #expect(home.events(to: "alice").first?.until == world.now + 12 * 3600)
        let view = CircleViews.circle(of: user("alice"), in: world.graph, now: world.now + 3600)
        #expect(view.following.first?.homeSafe?.at == world.now)
        let later = CircleViews.circle(of: user("alice"), in: world.graph, now: world.now + 12 * 3600)
        #expect(later.following.first?.homeSafe == nil)
    }

    @Test func unfollowTakesTheSOSMarkAndTheLiveViewWithIt() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob", sos: true)
        world.open("alice")
        #expect(world.graph.viewers(of: user("alice"))[user("bob")] == "inc-1")
        let unfollow = world.run("alice", .unfollow, "bob")
        #expect(unfollow.sharesHidden.map(\.viewer) == [user("bob")])
        #expect(world.graph.viewers(of: user("alice")).isEmpty)
    }

    @Test func removeFollowerEndsTheirViewToo() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob", sos: true)
        world.open("alice")
        let removed = world.run("bob", .removeFollower, "alice")
        #expect(removed.result?.ok == true)
        #expect(removed.sharesHidden.map(\.viewer) == [user("bob")])
    }
}
