import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The circle (docs/CONTRACT.md, "The circle") as its users know it, one story per use case, on
/// the five real executables and the secured broker: every user on their own phone, logged in as
/// themselves, seeing the circle only on topics under their own id. Timeouts are shortened by
/// configuration, never slept through.
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

    /// bob is alice's SOS contact: her red panic alerts him in his inbox and shows him where she
    /// is, live, as she walks north; her imSafe clears his view and tells him it is over.
    @Test func aRedPanicShowsTheSOSContactTheWalkerLiveUntilImSafe() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        try await befriend(alice, bob, sos: true)

        walker.keepWalking()
        try await walker.send(.panic(.red))
        let alert = try await bob.next(.alert, from: "alice")
        #expect(alert.level == .red && alert.reason == .panic && alert.incident != nil)
        #expect(alert.text.hasPrefix("alice needs help (panic, red)"), "\(alert.text)")

        // Five views, each further north than the one before: the view follows her.
        let route = try await bob.views(of: "alice", count: 5, within: 30) { view in view.position != nil }
        let lats = route.compactMap(\.position?.lat)
        #expect(route.allSatisfy { $0.incident.id == alert.incident && $0.incident.level == .red })
        #expect(route.allSatisfy { !$0.incident.duress })
        #expect(Set(lats).count >= 3 && lats == lats.sorted(), "\(lats)")
        #expect((lats.last ?? 0) > (lats.first ?? 0), "\(lats)")

        try await walker.send(.imSafe)
        try await bob.viewCleared(of: "alice")
        let clear = try await bob.next(.allClear, from: "alice")
        #expect(clear.incident == alert.incident)
        walker.stopWalking()
        #expect(try await retainedView(of: "alice", for: bob) == nil)
        await walker.leave(); await bob.leave()
        await world.stop()
    }

    /// alice marks carol an SOS contact while her incident is open: carol sees it from then on.
    /// She takes the mark off bob: his view goes at once, before the incident ends.
    @Test func anSOSMarkDuringAnIncidentShowsItAndTakingItOffHidesItAtOnce() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        let carol = try await world.phone("carol")
        try await befriend(alice, bob, sos: true)
        try await befriend(alice, carol, sos: false)

        try await walker.sendFix()
        try await walker.send(.panic(.red))
        let alert = try await bob.next(.alert, from: "alice")
        _ = try await bob.views(of: "alice")

        try await alice.perform(.sos, "carol")
        let late = try await carol.next(.alert, from: "alice")
        #expect(late.incident == alert.incident && late.level == .red)
        #expect(try await carol.views(of: "alice").first?.incident.id == alert.incident)

        try await alice.perform(.unsos, "bob")
        try await bob.viewCleared(of: "alice")
        #expect(try await retainedView(of: "alice", for: bob) == nil)

        try await walker.send(.imSafe)
        try await carol.viewCleared(of: "alice")
        #expect(try await carol.next(.allClear, from: "alice").incident == alert.incident)
        await walker.leave()
        for phone in [bob, carol] { await phone.leave() }
        await world.stop()
    }

    /// Under duress alice's phone shows a cancel, while her SOS contact sees the incident go on,
    /// red, marked `duress` (so he does not call her phone); nothing of it reaches alice's own
    /// topics. Her real cancel PIN ends it for him too.
    @Test func aDuressPINKeepsTheSOSContactAlertedWhileTheWalkerSeesACancel() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        try await befriend(alice, bob, sos: true)
        let answers = try await walker.phone.subscribe(walker.topic(.actionResult), qos: .atLeastOnce)
        func perform(_ action: Action) async throws -> ActionResult {
            try await walker.phone.publish(walker.topic(.action), payload: SafeWalkJSON.encode(action))
            return try #require(try await answers.decoded(ActionResult.self, where: { $0.id == action.id }).first)
        }
        let pins = Action(id: "pins", kind: .setPins(PINChange(cancel: PIN("2468")!, duress: PIN("1357")!)))
        #expect(try await perform(pins).ok)

        try await walker.sendFix()
        #expect(try await perform(Action(id: "panic", kind: .panic(.amber))).ok)
        let amber = try await bob.next(.alert, from: "alice")
        #expect(amber.level == .amber)
        let seenByAlice = try await alice.client.subscribe("safewalk/alice/#", qos: .atLeastOnce)

        #expect(try await perform(Action(id: "coerced", kind: .imSafe, pin: PIN("1357"))).ok)
        let red = try await bob.next(.alert, from: "alice")
        #expect(red.level == .red && red.incident == amber.incident)
        let view = try #require(try await bob.views(of: "alice") { $0.incident.duress }.first)
        #expect(view.incident.level == .red && view.incident.id == amber.incident)

        // alice's own answer, after all of that: nothing on her topics told of the duress.
        try await alice.perform(.inbox)
        let hers = await seenByAlice.drained()
        let told = hers.filter { message in
            let text = String(decoding: message.payload, as: UTF8.self)
            let circleTopic = ["/inbox", "/circle", "/shared/"].contains { message.topic.contains($0) }
            return text.contains("duress") || (circleTopic && text.contains(amber.incident ?? "-"))
        }
        #expect(told.isEmpty, "alice's phone read: \(told.map(\.topic))")

        #expect(try await perform(Action(id: "really", kind: .imSafe, pin: PIN("2468"))).ok)
        try await bob.viewCleared(of: "alice")
        #expect(try await bob.next(.allClear, from: "alice").incident == amber.incident)
        await walker.leave(); await bob.leave()
        await world.stop()
    }

    /// bob says "I'm on it" in the app: the notifier takes it as it takes a page's button, carol
    /// (alice's other SOS contact) is told, and both views show who is on it. Only an SOS contact
    /// of someone with an open incident may say it.
    @Test func imOnItInTheAppReachesTheOtherSOSContactsAndTheViews() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol", "dave"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        let carol = try await world.phone("carol")
        let dave = try await world.phone("dave")
        try await befriend(alice, bob, sos: true)
        try await befriend(alice, carol, sos: true)
        try await befriend(alice, dave, sos: false)
        #expect(try await bob.refusal(.ack, "alice") == .noOpenIncident)

        let phoneAlerts = try await walker.phone.subscribe(walker.topic(.alert), qos: .atLeastOnce)
        try await walker.sendFix()
        try await walker.send(.panic(.red))
        let alert = try await bob.next(.alert, from: "alice")
        _ = try await carol.next(.alert, from: "alice")
        #expect(try await dave.refusal(.ack, "alice") == .notAnSOSContact)

        // Her phone's alert says the notifier opened the ladder that "I'm on it" stops (a stack
        // this young holds escalations for SAFEWALK_CONTACTS_SETTLE while contact lists arrive).
        _ = try await phoneAlerts.decoded(DeviceAlert.self)
        try await bob.perform(.ack, "alice")
        let ack = try await carol.next(.ack, from: "alice")
        #expect(ack.incident == alert.incident && ack.text == "bob is on it for alice.", "\(ack)")
        for phone in [bob, carol] {
            let view = try await phone.views(of: "alice") { $0.incident.acknowledgedBy != nil }
            #expect(view.first?.incident.acknowledgedBy == "bob")
        }
        // And alice hears it as from a page's button: the ladder stopped for bob.
        _ = try await phoneAlerts.decoded(DeviceAlert.self) { $0.body.contains("bob is on it") }

        try await walker.send(.imSafe)
        _ = try await bob.next(.allClear, from: "alice")
        await walker.leave()
        for phone in [bob, carol, dave] { await phone.leave() }
        await world.stop()
    }

    /// An amber panic the same way: the alert and the view say amber.
    @Test func anAmberPanicAlertsAndShowsAmber() async throws {
        let world = try await CircleWorld.start(members: ["carol", "dave"])
        let walker = try await Walker("carol", on: world.stack)
        let carol = try await CirclePhone("carol", client: walker.phone)
        let dave = try await world.phone("dave")
        try await befriend(carol, dave, sos: true)

        try await walker.sendFix()
        try await walker.send(.panic(.amber))
        let alert = try await dave.next(.alert, from: "carol")
        #expect(alert.level == .amber && alert.reason == .panic)
        #expect(alert.text.hasPrefix("carol needs help (panic, amber)"), "\(alert.text)")
        let view = try #require(try await dave.views(of: "carol").first)
        #expect(view.incident.level == .amber && view.incident.id == alert.incident)

        try await walker.send(.imSafe)
        try await dave.viewCleared(of: "carol")
        #expect(try await dave.next(.allClear, from: "carol").incident == alert.incident)
        await walker.leave(); await dave.leave()
        await world.stop()
    }

    /// Nobody in alice's circle is an SOS contact: she still escalates (the escalation goes out,
    /// her alert offers the police), and her inbox says the circle was not alerted; bob, whom she
    /// follows without the mark, is told nothing.
    @Test func aPanicWithNoSOSContactsStillEscalatesAndSaysTheCircleWasNotAlerted() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        try await befriend(alice, bob, sos: false)
        let escalations = try await world.stack.observer.subscribe(walker.topic(.escalation), qos: .atLeastOnce)
        let alerts = try await walker.phone.subscribe(walker.topic(.alert), qos: .atLeastOnce)

        try await walker.send(.panic(.red))
        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .panic && escalation.level == .red)
        let alert = try #require(try await alerts.decoded(DeviceAlert.self).first)
        #expect(alert.actions.contains { $0.url == "tel:+15124714441" }, "\(alert.actions)")  // the police
        let notAlerted = try await alice.next(.circleNotAlerted)
        #expect(notAlerted.code == "noSOSContacts" && notAlerted.level == .red && notAlerted.reason == .panic)

        // bob's own inbox, sent again in full: no alert about alice.
        let replay = try await bob.replayInbox()
        #expect(!replay.events.contains { $0.type == .alert }, "\(replay.events.map(\.type))")
        try await walker.send(.imSafe)
        await walker.leave(); await bob.leave()
        await world.stop()
    }

    /// alice asks bob to check in; his answer tells every follower (carol too) when he did.
    @Test func aCheckInRequestIsAnsweredForEveryFollower() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let alice = try await world.phone("alice")
        let bob = try await world.phone("bob")
        let carol = try await world.phone("carol")
        try await befriend(alice, bob, sos: false)
        try await befriend(carol, bob, sos: false)

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
        try await befriend(alice, bob, sos: false)
        try await befriend(carol, bob, sos: false)
        try await befriend(bob, alice, sos: true)  // alice is bob's SOS contact
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
        try await befriend(alice, bob, sos: false)

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
        try await befriend(alice, bob, sos: false)

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

    /// bob's phone is off when alice panics; back on, it asks for its inbox and the alert is there.
    /// carol, her other SOS contact, is online: her alert says bob's was kept too.
    @Test func anAlertWaitsInTheInboxWhileThePhoneIsOff() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let off = try await world.phone("bob")
        let carol = try await world.phone("carol")
        try await befriend(alice, off, sos: true)
        try await befriend(alice, carol, sos: true)
        await off.leave()

        try await walker.sendFix()
        try await walker.send(.panic(.red))
        let witnessed = try await carol.next(.alert, from: "alice")

        let bob = try await world.phone("bob")
        let replay = try await bob.replayInbox()
        #expect(replay.events.map(\.type) == [.followRequest, .alert], "oldest first, each once")
        #expect(replay.result.count == replay.events.count)
        let alert = try #require(replay.events.first { $0.type == .alert })
        #expect(alert.from.rawValue == "alice" && alert.incident == witnessed.incident && alert.level == .red)
        try await walker.send(.imSafe)
        _ = try await bob.next(.allClear, from: "alice")  // online again: told as it happens
        await walker.leave(); await bob.leave(); await carol.leave()
        await world.stop()
    }

    // MARK: Helpers

    /// `follower` follows `followee` (asked and accepted), and marks them an SOS contact if `sos`.
    func befriend(_ follower: CirclePhone, _ followee: CirclePhone, sos: Bool) async throws {
        try await follower.perform(.follow, followee.user.rawValue)
        _ = try await followee.next(.followRequest, from: follower.user.rawValue)
        try await followee.perform(.accept, follower.user.rawValue)
        _ = try await follower.next(.followAccepted, from: followee.user.rawValue)
        if sos {
            try await follower.perform(.sos, followee.user.rawValue)
            _ = try await follower.circle { $0.following.contains { $0.user == followee.user && $0.sos } }
        }
    }

    /// What a new subscriber to `{viewer}/shared/{walker}` gets: the retained view, if one is
    /// kept. The viewer's own `op: inbox`, answered after it, marks the end of the wait.
    func retainedView(of walker: String, for viewer: CirclePhone) async throws -> MQTTMessage? {
        let topic = Topic.shared(for: viewer.user, of: try WalkerID(walker))
        let fresh = try await viewer.client.subscribe(topic, qos: .atLeastOnce)
        _ = try await viewer.replayInbox()
        return await fresh.drained().first { !$0.payload.isEmpty }
    }

    /// `14:05 UTC`, as the inbox writes a time.
    func clock(_ at: EpochSeconds) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: Date(timeIntervalSince1970: at)) + " UTC"
    }
}
