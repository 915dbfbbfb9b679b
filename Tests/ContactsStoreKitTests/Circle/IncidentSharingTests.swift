import SafeWalkCore
import Testing

@testable import ContactsStoreKit

/// Alerts to SOS contacts in the app, pure.
@Suite struct IncidentSharingTests {
    @Test func anOpenIncidentAlertsEverySOSContactAndOnlyThem() {
        var world = CircleWorld(members: ["alice", "bob", "carol", "dave"])
        world.connect("alice", to: "bob", sos: true)
        world.connect("alice", to: "carol")  // followed, not an SOS contact
        world.connect("dave", to: "alice")  // a follower of alice, not an SOS contact
        let opened = world.open("alice")
        #expect(opened.deliveries.map(\.to) == [user("bob")])
        #expect(opened.events(to: "bob").first?.type == .alert)
        #expect(opened.sharesShown.map(\.viewer) == [user("bob")])
        #expect(CircleViews.shared(user("alice"), in: world.graph, now: world.now)?.incident.level == .red)
    }

    @Test func theSameIncidentReadAgainKeepsTheSameEventIDs() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob", sos: true)
        let first = world.open("alice", level: .amber)
        let again = world.open("alice", level: .amber)
        #expect(first.deliveries.map(\.event.id) == again.deliveries.map(\.event.id))
        #expect(again.sharesShown.isEmpty)  // already shown
        let raised = world.open("alice", level: .red)
        #expect(raised.deliveries.map(\.event.id) != first.deliveries.map(\.event.id))
    }

    @Test func noSOSContactsTellsTheWalkerUnlessUnderDuress() {
        var world = CircleWorld(members: ["alice"])
        let opened = world.open("alice")
        #expect(opened.events(to: "alice").map(\.type) == [.circleNotAlerted])
        #expect(opened.events(to: "alice").first?.code == "noSOSContacts")
        // The phone is told, but never given the services' incident id, even inside the event's id.
        #expect(opened.events(to: "alice").first?.incident == nil)
        #expect(opened.events(to: "alice").first?.id.contains("inc-1") == false)
        var duress = CircleWorld(members: ["alice"])
        #expect(duress.open("alice", duress: true).deliveries.isEmpty)
    }

    @Test func aDuressIncidentStillReachesSOSContactsFlagged() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob", sos: true)
        let opened = world.open("alice", duress: true)
        #expect(opened.events(to: "bob").count == 1)
        #expect(opened.events(to: "alice").isEmpty)
        #expect(CircleViews.shared(user("alice"), in: world.graph, now: world.now)?.incident.duress == true)
    }

    @Test func closingClearsEveryViewAndTellsEachViewerOnce() {
        var world = CircleWorld(members: ["alice", "bob", "carol"])
        world.connect("alice", to: "bob", sos: true)
        world.connect("alice", to: "carol", sos: true)
        world.open("alice")
        let closed = world.close("alice")
        #expect(Set(closed.sharesHidden.map(\.viewer)) == [user("bob"), user("carol")])
        #expect(closed.deliveries.allSatisfy { $0.event.type == .allClear })
        #expect(world.graph.viewers(of: user("alice")).isEmpty)
        #expect(world.close("alice").deliveries.isEmpty)  // closed again: nobody is shown, nobody told
    }

    @Test func aFormerSOSContactIsNotToldOfTheEnd() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob", sos: true)
        world.open("alice")
        let unmarked = world.run("alice", .unsos, "bob")
        #expect(unmarked.sharesHidden.map(\.viewer) == [user("bob")])
        #expect(world.close("alice").deliveries.isEmpty)
    }

    @Test func someoneMarkedDuringAnIncidentSeesItFromThen() {
        var world = CircleWorld(members: ["alice", "bob"])
        world.connect("alice", to: "bob")
        world.open("alice")
        let marked = world.run("alice", .sos, "bob")
        #expect(marked.events(to: "bob").map(\.type) == [.alert])
        #expect(marked.sharesShown.map(\.viewer) == [user("bob")])
    }

    @Test func anAcknowledgementTellsTheOtherViewersOnce() {
        var world = CircleWorld(members: ["alice", "bob", "carol"])
        world.connect("alice", to: "bob", sos: true)
        world.connect("alice", to: "carol", sos: true)
        world.open("alice")
        let ack = IncidentSharing.acknowledged(
            walker: user("alice"), incident: "inc-1", by: "bob", graph: world.graph, now: world.now)
        #expect(ack.deliveries.map(\.to) == [user("carol")])
        world.graph.acknowledgedBy["inc-1"] = "bob"
        #expect(
            IncidentSharing.acknowledged(
                walker: user("alice"), incident: "inc-1", by: "Mum", graph: world.graph, now: world.now
            ).deliveries.isEmpty)
    }
}
