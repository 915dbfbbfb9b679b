import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The circle when someone needs help (docs/CONTRACT.md, "The circle"), on the five real
/// executables and the secured broker: a walker's escalation reaches the SOS contacts she chose,
/// in their inboxes and as a live view under their own ids, until it is over; under duress they
/// are told while her phone shows a cancel. Every user on their own phone, logged in as themselves.
@Suite("End to end: the circle when someone needs help", .serialized)
struct CircleStoryIncidentTests {
    /// bob is alice's SOS contact: her red panic alerts him in his inbox and shows him where she
    /// is, live, as she walks north; her imSafe clears his view and tells him it is over.
    @Test func aRedPanicShowsTheSOSContactTheWalkerLiveUntilImSafe() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        try await alice.follow(bob, sos: true)

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
        #expect(try await bob.retainedView(of: "alice") == nil)
        await walker.leave(); await bob.leave()
        await world.stop()
    }

    /// An amber panic the same way: the alert and the view say amber.
    @Test func anAmberPanicAlertsAndShowsAmber() async throws {
        let world = try await CircleWorld.start(members: ["carol", "dave"])
        let walker = try await Walker("carol", on: world.stack)
        let carol = try await CirclePhone("carol", client: walker.phone)
        let dave = try await world.phone("dave")
        try await carol.follow(dave, sos: true)

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
        try await alice.follow(bob)
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

    /// bob's phone is off when alice panics; back on, it asks for its inbox and the alert is there.
    /// carol, her other SOS contact, is online: her alert says bob's was kept too.
    @Test func anAlertWaitsInTheInboxWhileThePhoneIsOff() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let off = try await world.phone("bob")
        let carol = try await world.phone("carol")
        try await alice.follow(off, sos: true)
        try await alice.follow(carol, sos: true)
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

    /// alice marks carol an SOS contact while her incident is open: carol sees it from then on.
    /// She takes the mark off bob: his view goes at once, before the incident ends.
    @Test func anSOSMarkDuringAnIncidentShowsItAndTakingItOffHidesItAtOnce() async throws {
        let world = try await CircleWorld.start(members: ["alice", "bob", "carol"])
        let walker = try await Walker("alice", on: world.stack)
        let alice = try await CirclePhone("alice", client: walker.phone)
        let bob = try await world.phone("bob")
        let carol = try await world.phone("carol")
        try await alice.follow(bob, sos: true)
        try await alice.follow(carol)

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
        #expect(try await bob.retainedView(of: "alice") == nil)

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
        try await alice.follow(bob, sos: true)
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
        try await alice.follow(bob, sos: true)
        try await alice.follow(carol, sos: true)
        try await alice.follow(dave)
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
}
