import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The real `contacts-store` executable as the circle owner, on a real broker with a real SQLite
/// file: commands answered once per id, a SIGKILL losing nothing, an inbox kept for a phone that
/// was off, and an incident's live view following the walker until it closes.
@Suite(.holdsResources) struct CircleIntegrationTests {
    let members = ["alice", "bob", "carol"]

    func start(_ broker: MosquittoBroker, env extra: [String: String] = [:]) async throws -> ChildProcess {
        try await ContactsStoreProcess.start(on: broker, env: extra)
    }

    /// One user's phone: its results, inbox and circle subscribed before it sends anything.
    struct Phone {
        let user: WalkerID
        let client: MQTTClient
        let results: MQTTSubscription
        let inbox: MQTTSubscription

        static func connect(_ name: String, on broker: MosquittoBroker) async throws -> Phone {
            let user = try WalkerID(name)
            let client = try await broker.client("\(name)-phone")
            return Phone(
                user: user, client: client,
                results: try await client.subscribe(Topic.circleResult(user).name(), qos: .atLeastOnce),
                inbox: try await client.subscribe(Topic.inbox(user).name(), qos: .atLeastOnce))
        }

        func send(_ op: CircleCommand.Operation, _ other: String? = nil, id: String, on: Bool? = nil) async throws
            -> CircleResult
        {
            let command = CircleCommand(id: id, op: op, user: other, on: on)
            try await client.publish(Topic.circleCommand(user).name(), payload: try SafeWalkJSON.encode(command))
            let answer = try #require(try await results.first(1).first)
            return try SafeWalkJSON.decode(CircleResult.self, from: answer.payload)
        }

        func events(_ count: Int) async throws -> [InboxEvent] {
            try await inbox.first(count).map { try SafeWalkJSON.decode(InboxEvent.self, from: $0.payload) }
        }
    }

    func publishMembers(on broker: MosquittoBroker) async throws {
        let web = try await broker.client("web")
        for name in members {
            try await web.publish(
                Topic.member(try WalkerID(name)).name(),
                payload: try SafeWalkJSON.encode(Member(user: try WalkerID(name), since: 1)), retain: true)
        }
        await web.shutdown()
    }

    @Test func commandsAreAnsweredOncePerIDAndSurviveASIGKILL() async throws {
        let broker = try await MosquittoBroker.start()
        try await publishMembers(on: broker)
        var service = try await start(broker)
        let alice = try await Phone.connect("alice", on: broker)
        let bob = try await Phone.connect("bob", on: broker)

        #expect(try await alice.send(.follow, "nobody", id: "f0").error?.code == .unknownUser)
        #expect(try await alice.send(.follow, " BOB ", id: "f1").ok)
        #expect(try await bob.events(1).map(\.type) == [.followRequest])
        // The same command again: the same answer, and bob is not asked twice.
        #expect(try await alice.send(.follow, "bob", id: "f1").ok)
        #expect(try await alice.send(.follow, "bob", id: "f2").error?.code == .alreadyRequested)
        #expect(try await bob.send(.accept, "alice", id: "a1").ok)

        service.signal(SIGKILL)
        _ = try await service.waitForExit()
        service = try await start(broker)
        // Everything came back from the file: alice follows bob, so she may mark him.
        #expect(try await alice.send(.follow, "bob", id: "f3").error?.code == .alreadyFollowing)
        #expect(try await alice.send(.sos, "bob", id: "s1").ok)
        let circles = try await alice.client.subscribe(Topic.circle(alice.user).name(), qos: .atLeastOnce)
        let view = try SafeWalkJSON.decode(
            CircleView.self, from: try #require(try await circles.first(1).first).payload)
        #expect(view.following.map(\.user) == [bob.user])
        #expect(view.following.first?.sos == true)
        #expect(await bob.inbox.drained().isEmpty)  // nothing told twice across the restart

        service.signal(SIGTERM)
        _ = try await service.waitForExit()
        for phone in [alice, bob] { await phone.client.shutdown() }
        await broker.shutdown()
    }

    @Test func anAlertWhileAPhoneIsOffIsInItsInboxWhenItIsBack() async throws {
        let broker = try await MosquittoBroker.start()
        try await publishMembers(on: broker)
        let service = try await start(broker)
        let alice = try await Phone.connect("alice", on: broker)
        var bob = try await Phone.connect("bob", on: broker)
        #expect(try await alice.send(.follow, "bob", id: "f1").ok)
        #expect(try await bob.send(.accept, "alice", id: "a1").ok)
        #expect(try await alice.send(.sos, "bob", id: "s1").ok)
        _ = try await bob.events(1)  // the follow request
        await bob.client.shutdown()  // bob's phone is off

        let watchdog = try await broker.client("watchdog")
        let sent = try await watchdog.subscribe(Topic.inbox(bob.user).name(), qos: .atLeastOnce)
        let incident = IncidentState(
            incident: "inc-1", walker: alice.user, state: .open, reason: .panic, level: .red, duress: false,
            openedAt: 1_760_000_000)
        try await watchdog.publish(
            Topic.incident(alice.user).name(), payload: try SafeWalkJSON.encode(incident), retain: true)
        _ = try await sent.first(1)  // the alert went out while nobody was there to read it

        bob = try await Phone.connect("bob", on: broker)
        let replay = try await bob.send(.inbox, id: "i1")
        #expect(replay.ok)
        #expect(replay.count == 2)
        let kept = try await bob.events(2)
        #expect(kept.map(\.type) == [.followRequest, .alert])
        #expect(kept.last?.incident == "inc-1")

        service.signal(SIGTERM)
        _ = try await service.waitForExit()
        for client in [alice.client, bob.client, watchdog] { await client.shutdown() }
        await broker.shutdown()
    }

    @Test func theLiveViewFollowsTheWalkerUntilTheIncidentCloses() async throws {
        let broker = try await MosquittoBroker.start()
        try await publishMembers(on: broker)
        let service = try await start(broker)
        let alice = try await Phone.connect("alice", on: broker)
        let bob = try await Phone.connect("bob", on: broker)
        let carol = try await Phone.connect("carol", on: broker)
        #expect(try await alice.send(.follow, "bob", id: "f1").ok)
        #expect(try await bob.send(.accept, "alice", id: "a1").ok)
        #expect(try await alice.send(.sos, "bob", id: "s1").ok)
        #expect(try await carol.send(.follow, "alice", id: "f2").ok)  // asked, never accepted
        #expect(try await bob.events(1).map(\.type) == [.followRequest])
        let bobSees = try await bob.client.subscribe(Topic.shared(for: bob.user, of: alice.user), qos: .atLeastOnce)
        let carolSees = try await carol.client.subscribe("safewalk/carol/shared/+", qos: .atLeastOnce)

        let services = try await broker.client("services")
        var incident = IncidentState(
            incident: "inc-1", walker: alice.user, state: .open, reason: .panic, level: .amber, duress: false,
            openedAt: 1_760_000_000)
        try await services.publish(
            Topic.incident(alice.user).name(), payload: try SafeWalkJSON.encode(incident), retain: true)
        let first = try SafeWalkJSON.decode(
            SharedView.self, from: try #require(try await bobSees.first(1).first).payload)
        #expect(first.incident.level == .amber)
        for step in 1...3 {
            let fix = LocationFix(
                lat: 30.28 + Double(step) * 0.001, lon: -97.73, tst: 1_760_000_000 + Double(step), acc: 5)
            let update = PositionUpdate(fix: fix, moved: true, lastMovedAt: fix.tst)
            try await services.publish(
                Topic.position(alice.user).name(), payload: try SafeWalkJSON.encode(update), retain: true)
            let seen = try SafeWalkJSON.decode(
                SharedView.self, from: try #require(try await bobSees.first(1).first).payload)
            #expect(seen.position?.lat == fix.lat)
        }
        incident = incident.closed(at: 1_760_000_100, by: .imSafe)
        try await services.publish(
            Topic.incident(alice.user).name(), payload: try SafeWalkJSON.encode(incident), retain: true)
        #expect(try #require(try await bobSees.first(1).first).payload.isEmpty)  // cleared
        let told = try await bob.events(2).map(\.type)
        #expect(told == [.alert, .allClear])
        // A later position reaches nobody.
        let late = PositionUpdate(
            fix: LocationFix(lat: 30.3, lon: -97.7, tst: 1_760_000_200, acc: 5), moved: true, lastMovedAt: 1_760_000_200
        )
        try await services.publish(
            Topic.position(alice.user).name(), payload: try SafeWalkJSON.encode(late), retain: true)
        #expect(try await alice.send(.checkIn, id: "marker").ok)  // everything before this was handled
        #expect(await bobSees.drained().isEmpty)
        #expect(await carolSees.drained().isEmpty)

        service.signal(SIGTERM)
        _ = try await service.waitForExit()
        for client in [alice.client, bob.client, carol.client, services] { await client.shutdown() }
        await broker.shutdown()
    }
}
