import Foundation
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkWebKit
import TestSupport
import Testing

/// `_members/{w}` on a real Mosquitto: a sign-up retains the account's record, an erasure clears
/// it from its first step (and a cancelled one gives it back), and web's next start makes the
/// broker's records match the accounts again, healing what an outage lost.
@Suite(.serialized, .holdsResources) struct MemberDirectoryTests {
    struct Rig: Sendable {
        let broker: MosquittoBroker
        let bus: MQTTClient
        let web: WebFixture

        static func start(_ adjust: (inout WebSettings) -> Void = { _ in }) async throws -> Rig {
            var settings = WebSettings()
            adjust(&settings)
            let broker = try await MosquittoBroker.start()
            let bus = try await broker.client("web")
            let web = try WebFixture(settings: settings, members: BrokerMembers(bus: bus, prefix: "safewalk"))
            return Rig(broker: broker, bus: bus, web: web)
        }

        /// The broker stops, and web's client has noticed.
        func outage() async throws {
            await broker.stop()
            try await eventually("web's client sees the broker gone") { !bus.isConnected }
        }

        func stop() async {
            await bus.shutdown()
            await broker.shutdown()
        }

        /// What `_members/+` retains now, by user. A fresh subscriber is sent every retained
        /// record first; a marker it publishes after subscribing proves none is still coming.
        func retained() async throws -> [String: Member] {
            let reader = try await broker.client()
            let records = try await reader.subscribe("safewalk/_members/+", qos: .atLeastOnce)
            try await reader.publish("safewalk/_members/zz-marker", payload: Data("marker".utf8))
            let found = try await withTimeout(10, "the marker on _members/+") {
                var found: [String: Member] = [:]
                for await message in records {
                    if message.topic.hasSuffix("/zz-marker") { break }
                    #expect(message.retain, "\(message.topic)")
                    let member = try SafeWalkJSON.decode(Member.self, from: message.payload)
                    #expect(message.topic == "safewalk/_members/\(member.user)")
                    found[member.user.rawValue] = member
                }
                return found
            }
            await reader.shutdown()
            return found
        }

        /// The record an account's creation time makes.
        func record(_ user: String) async throws -> Member {
            let account = try #require(try await web.accounts.database.account(key: user))
            return Member(user: account.username, since: account.createdAt.timeIntervalSince1970.rounded(.down))
        }
    }

    @Test func aSignUpRetainsTheAccountsRecord() async throws {
        let rig = try await Rig.start()
        try await rig.web.live { client in
            let response = try await client.signUp("alice")
            #expect(response.status == .created)
            #expect(try await rig.retained() == ["alice": rig.record("alice")])
        }
        await rig.stop()
    }

    @Test func anErasureClearsTheRecordAtItsStartAndACancelledOneGivesItBack() async throws {
        let rig = try await Rig.start { $0.eraseWait = .seconds(1) }
        // The notifier does not answer: alice's erasure goes on in the background.
        rig.web.services.state.withLock { $0.silent = [.notifier] }
        try await rig.web.live { client in
            for name in ["alice", "bob", "carol"] { try await client.signUp(name) }
            let alice = try await client.session("alice")
            #expect(try await client.send(.delete, "/v1/accounts/alice", session: alice).status == .accepted)
            #expect(try await Set(rig.retained().keys) == ["bob", "carol"], "nobody may follow alice any more")

            // carol's erasure is refused (an open incident): cleared at its start, then back.
            let history = try await rig.bus.subscribe("safewalk/_members/carol", qos: .atLeastOnce)
            rig.web.services.state.withLock { $0.refusals[.watchdog] = .openIncident }
            let carol = try await client.session("carol")
            #expect(try await client.send(.delete, "/v1/accounts/carol", session: carol).status == .conflict)
            let seen = try await history.first(3)
            #expect(seen.map { $0.payload.isEmpty } == [false, true, false])
            history.cancel()
            #expect(try await rig.retained() == ["bob": rig.record("bob"), "carol": rig.record("carol")])
        }
        await rig.stop()
    }

    @Test func theNextStartRepublishesEveryAccountAndClearsTheOthers() async throws {
        let rig = try await Rig.start()
        try await rig.web.live { client in
            for name in ["alice", "bob", "dave"] { try await client.signUp(name) }
            try await Self.restartWith(rig)
        }
        await rig.stop()
    }

    static func restartWith(_ rig: Rig) async throws {
        let database = rig.web.accounts.database
        // bob's erasure was recorded, then web stopped; dave's sign-up was cut short.
        _ = try #require(
            try await database.startErasure(id: "e1", key: "bob", remaining: ErasingServices.rest, at: Date()))
        try await database.setState(.pending, key: "dave")
        // The broker lost everything (no persistence) and then got stale records for both, as if
        // their clears had been lost.
        try await rig.broker.restart()
        try await rig.bus.waitUntilConnected()
        let stale = try await rig.broker.client()
        for name in ["bob", "dave"] {
            let record = Member(user: WalkerID(validating: name)!, since: 1)
            try await stale.publish(
                "safewalk/_members/\(name)", payload: try SafeWalkJSON.encode(record), retain: true)
        }
        await stale.shutdown()
        #expect(try await Set(rig.retained().keys) == ["bob", "dave"])

        // web's start, as Web.services does it.
        let forgotten = try await database.forgetPending().compactMap(WalkerID.init(validating:))
        #expect(forgotten.map(\.rawValue) == ["dave"])
        let pass = await MemberRepublisher(accounts: rig.web.accounts, forgotten: forgotten, concurrency: 2)
            .republishAll()
        #expect(pass == MemberRepublisher.Pass(published: 1, cleared: 2, failed: 0))
        #expect(try await rig.retained() == ["alice": rig.record("alice")])
    }

    /// The sign-up stops waiting after `SAFEWALK_BROKER_ADMIN_WAIT`, but the MQTT client keeps the
    /// QoS 1 record and sends it when the broker is back: web need not restart.
    @Test func aRecordPublishedDuringABrokerOutageArrivesWhenTheBrokerIsBack() async throws {
        let rig = try await Rig.start { $0.commandWait = .seconds(1) }
        try await rig.web.live { client in
            try await rig.outage()
            // broker-admin (in memory here) made the login: the account works without its record.
            #expect(try await client.signUp("alice").status == .created)
            #expect(try await client.signIn("alice").status == .ok)
            try await rig.broker.start()
            let reader = try await rig.broker.client()
            let alice = try await reader.subscribe("safewalk/_members/alice", qos: .atLeastOnce)
            let arrived = try await alice.first(1).map { try SafeWalkJSON.decode(Member.self, from: $0.payload) }
            #expect(try await arrived == [rig.record("alice")])
            await reader.shutdown()
        }
        await rig.stop()
    }

    /// web stops before the broker is back: the record it held is gone, and its next start
    /// publishes it from the database.
    @Test func aRecordLostWithWebsStopIsHealedByTheNextStart() async throws {
        let rig = try await Rig.start { $0.commandWait = .seconds(1) }
        try await rig.web.live { client in
            try await rig.outage()
            #expect(try await client.signUp("alice").status == .created)
            await rig.bus.shutdown()
            try await rig.broker.start()
            #expect(try await rig.retained().isEmpty, "the record was lost with web's stop")

            let bus = try await rig.broker.client("web-again")
            let before = rig.web.accounts
            let restarted = Accounts(
                database: before.database, passwords: before.passwords, keeper: before.keeper, eraser: before.eraser,
                members: BrokerMembers(bus: bus, prefix: "safewalk"), gate: before.gate, settings: before.settings,
                logger: before.logger)
            #expect(await MemberRepublisher(accounts: restarted).republishAll() == .init(published: 1))
            #expect(try await rig.retained() == ["alice": rig.record("alice")])
            await bus.shutdown()
        }
        await rig.stop()
    }
}
