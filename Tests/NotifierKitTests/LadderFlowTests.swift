import Foundation
import GRDB
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// The ladder wired into the notifier: real SQLite, the in-memory bus, recording SMS and webhook
/// channels, the real device channel, and the ladder on its own virtual clock (deliveries on an
/// auto-advancing one, so retries never wait).
@Suite("The escalation ladder in the notifier", .holdsResources)
struct LadderFlowTests {
    static let ana = Contact(id: "c1", name: "Ana", rawPhone: "(512) 555-0101")
    static let cal = Contact(id: "c4", name: "Cal", rawPhone: "737 555 0102")
    static let ben = Contact(id: "c2", name: "Ben", rawPhone: "+44 20 7946 0958", tier: 2)
    static let anaPhone = "+15125550101"
    static let calPhone = "+17375550102"
    static let benPhone = "+442079460958"

    struct Rig {
        let harness: NotifierHarness
        let sms: RecordingChannel
        let hook: RecordingChannel
        var ladder: VirtualClock { harness.ladderClock }

        func advance(to seconds: Double) { ladder.advance(to: Fixtures.now + seconds) }

        func close(_ incident: String = "esc-1", duress: Bool = false) async throws {
            let state = IncidentState(
                incident: incident, walker: Fixtures.walker, state: .closed, reason: .needHelp, level: .red,
                duress: duress, openedAt: Fixtures.now, closedAt: ladder.now(), closedBy: .imSafe)
            try await harness.bus.publish(
                Topic.incident(Fixtures.walker).name(), payload: SafeWalkJSON.encode(state), retain: true)
        }

        /// Publishes an acknowledgement and returns its answer.
        func acknowledge(_ request: AcknowledgementRequest) async throws -> AcknowledgementResult {
            let answers = try await harness.bus.subscribe(Topic.acknowledgementResult.name(), qos: .atLeastOnce)
            try await harness.bus.publish(Topic.acknowledgementRequest.name(), payload: SafeWalkJSON.encode(request))
            let message = try #require(try await answers.first(1).first)
            return try SafeWalkJSON.decoder().decode(AcknowledgementResult.self, from: message.payload)
        }

        /// The page token the first text to `phone` carried.
        func token(of phone: String) throws -> String {
            try #require(sms.all.first { $0.key == phone }?.plan.recipients.first { $0.phone == phone }?.page)
        }

        func ladderState() throws -> LadderState {
            let message = try #require(harness.bus.published(matching: "safewalk/_ladder/alex").last)
            return try SafeWalkJSON.decoder().decode(LadderState.self, from: message.payload)
        }

        func alerts() throws -> [DeviceAlert] {
            try harness.bus.published(matching: "safewalk/alex/alert").map {
                try SafeWalkJSON.decoder().decode(DeviceAlert.self, from: $0.payload)
            }
        }
    }

    static func rig(
        contacts: [Contact] = [ana, cal, ben], settings: [String: String] = [:],
        database: (DatabasePool, URL)? = nil, ladderAt offset: Double = 0
    ) async throws -> Rig {
        let sms = RecordingChannel("sms-http")
        let hook = RecordingChannel("webhook")
        let harness = try await NotifierHarness.start(
            contacts: contacts, clock: VirtualClock(autoAdvance: true),
            settings: DeliveryTests.settle.merging(settings) { $1 },
            ladderClock: VirtualClock(now: Fixtures.now + offset), database: database,
            channels: { bus in [DeviceChannel(bus: bus, prefix: Fixtures.prefix), sms, hook] })
        return Rig(harness: harness, sms: sms, hook: hook)
    }

    @Test func tierOneAtOnceTierTwoOnlyAfterItsWaitAndOnlyTheBackups() async throws {
        let rig = try await Self.rig()
        // The device's alert is a delivery of its own, beside the texts: awaited, not assumed
        // done once they are (a loaded CI machine published it after both texts).
        let deviceAlerts = try await rig.harness.bus.subscribe("safewalk/alex/alert", qos: .atLeastOnce)
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        _ = try await deviceAlerts.first(1)
        #expect(Set(rig.sms.all.map(\.key)) == [Self.anaPhone, Self.calPhone])
        #expect(rig.hook.all.isEmpty, "dispatch is tier 3")
        #expect(try rig.alerts().count == 1)

        rig.advance(to: 119)
        #expect(try await !rig.harness.ledger.knows("esc-1#tier2"))
        rig.advance(to: 120)
        try await rig.sms.wait(for: "esc-1#tier2")
        #expect(rig.sms.all.filter { $0.job == "esc-1#tier2" }.map(\.key) == [Self.benPhone])
        #expect(try rig.ladderState().tier == 2)
        #expect(try rig.alerts().count == 1, "the device is not told of tiers")
        await rig.harness.stop()
    }

    @Test func theDispatchWebhookIsToldAtTierThreeThenEveryoneIsReminded() async throws {
        let rig = try await Self.rig()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        rig.advance(to: 120)
        try await rig.sms.wait(for: "esc-1#tier2")
        rig.advance(to: 240)
        try await rig.hook.wait(for: "esc-1#tier3")
        #expect(rig.hook.all.map(\.job) == ["esc-1#tier3"])
        #expect(rig.hook.all.first?.plan.dispatchPage != nil)
        rig.advance(to: 540)
        try await rig.sms.wait(for: "esc-1#remind1", count: 3)
        try await rig.hook.wait(for: "esc-1#remind1")
        #expect(rig.sms.all.first { $0.job == "esc-1#remind1" }?.body.hasPrefix("Reminder:") == true)
        #expect(rig.sms.jobs(of: Self.anaPhone) == ["esc-1", "esc-1#remind1"])
        await rig.harness.stop()
    }

    @Test func anAcknowledgementStopsTheClimbAndTellsTheWalkerAndTheOthersOnce() async throws {
        let rig = try await Self.rig()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        let page = PageToken.digest(try rig.token(of: Self.anaPhone))
        let result = try await rig.acknowledge(.init(id: "ack-1", via: .page, page: page, at: Fixtures.now))
        #expect(
            result
                == AcknowledgementResult(id: "ack-1", ok: true, walker: Fixtures.walker, incident: "esc-1", by: "Ana"))
        try await rig.sms.wait(for: "esc-1#ack")
        #expect(rig.sms.all.filter { $0.job == "esc-1#ack" }.map(\.key) == [Self.calPhone])
        let handling = try #require(rig.sms.all.first { $0.job == "esc-1#ack" }?.body)
        #expect(handling.hasPrefix("Ana is handling it (alex).\nLive: https://safewalk.example/i/"))
        #expect(!handling.contains("Reply OK"), "nothing to answer")
        try await eventually("the walker told") { try rig.alerts().count == 2 }
        #expect(try rig.alerts().last?.title == "Ana is on it")

        // Cal by text, without a code: Ana's acknowledgement stands, and nobody is told again.
        let second = try await rig.acknowledge(.init(id: "ack-2", via: .sms, phone: "737-555-0102", at: Fixtures.now))
        #expect(second.ok && second.by == "Ana")
        rig.advance(to: 300)  // tier 2's wait passed, the acknowledgement stands (10 min)
        #expect(try await !rig.harness.ledger.knows("esc-1#tier2"))
        #expect(try rig.ladderState().acknowledgement?.by == "Ana")
        #expect(rig.sms.all.filter { $0.job.hasPrefix("esc-1#ack") }.count == 1)
        await rig.harness.stop()
    }

    @Test func aDuressIncidentsAcknowledgementTellsTheDeviceNothing() async throws {
        let rig = try await Self.rig()
        var event = Fixtures.escalation()
        event.duress = true
        try await rig.harness.publish(event)
        try await rig.sms.wait(for: "esc-1", count: 2)
        let result = try await rig.acknowledge(
            .init(id: "ack-1", via: .sms, phone: Self.anaPhone, code: try rig.ladderCode(), at: Fixtures.now))
        #expect(result.ok)
        try await rig.sms.wait(for: "esc-1#ack")
        #expect(try rig.alerts().isEmpty)
        #expect(try await !rig.harness.ledger.progress(of: "esc-1#ack").contains { $0.channel == "device" })
        await rig.harness.stop()
    }

    @Test func allClearGoesOnceToEveryoneToldOnTheirChannelEvenWhenClosedIsRedelivered() async throws {
        let rig = try await Self.rig(settings: ["SAFEWALK_WEBHOOK_TIER": "1"])
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        try await rig.hook.wait(for: "esc-1")
        try await rig.close()
        try await rig.close()
        try await rig.sms.wait(for: "esc-1#allclear", count: 2)
        try await rig.hook.wait(for: "esc-1#allclear")
        try await rig.close()
        rig.advance(to: 1000)
        try await eventually("the closed state published") { try rig.ladderState().state == .closed }
        #expect(
            rig.sms.all.filter { $0.job == "esc-1#allclear" }.map(\.key).sorted() == [Self.anaPhone, Self.calPhone])
        #expect(rig.sms.all.first { $0.job == "esc-1#allclear" }?.body.contains("alex is safe (at ") == true)
        #expect(!rig.sms.all.contains { $0.key == Self.benPhone }, "never told, never all-cleared")
        #expect(try rig.alerts().count == 1, "the device closed it itself")
        // As after a duress PIN (nothing), the phone hears nothing of the all-clear.
        let receipts = try rig.harness.bus.published(matching: "safewalk/alex/delivery").map {
            try SafeWalkJSON.decoder().decode(DeliveryReceipt.self, from: $0.payload).escalationId
        }
        #expect(Set(receipts) == ["esc-1"])
        #expect(try await rig.harness.ledger.knows("esc-1#tier2") == false)
        await rig.harness.stop()
    }

    @Test func anIncidentClosedBeforeItsEscalationArrivesIsStillToldAndThenAllCleared() async throws {
        let rig = try await Self.rig(contacts: [Self.ana])
        try await rig.close()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1#allclear")
        #expect(rig.sms.jobs(of: Self.anaPhone) == ["esc-1", "esc-1#allclear"])
        await rig.harness.stop()
    }

    @Test func aRestartMidLadderNeitherLosesNorRepeatsAStep() async throws {
        let database = try SQLiteStore.temporary(migrator: DeliveryLedger.migrator)
        let first = try await Self.rig(database: database)
        try await first.harness.publish(Fixtures.escalation())
        try await first.sms.wait(for: "esc-1", count: 2)
        try await eventually("delivered") { try await first.harness.ledger.unfinished().isEmpty }
        await first.harness.stop(keepingDatabase: true)

        // Down across tier 2's deadline: the next start makes the step, once.
        let second = try await Self.rig(database: database, ladderAt: 200)
        try await second.sms.wait(for: "esc-1#tier2")
        try await eventually("delivered") { try await second.harness.ledger.unfinished().isEmpty }
        await second.harness.stop(keepingDatabase: true)
        let third = try await Self.rig(database: database, ladderAt: 200)
        try await eventually("open ladder republished") { (try? third.ladderState().tier) == 2 }
        await third.harness.stop()
        let sends = second.sms.all + third.sms.all
        #expect(sends.map(\.job) == ["esc-1#tier2"])
        #expect(sends.map(\.key) == [Self.benPhone])
    }

    @Test func aFailedTextIsSentOnceMoreThenDispatchIsTold() async throws {
        let rig = try await Self.rig(contacts: [Self.ana])
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1")
        func failLatest() async throws {
            let ref = try #require(rig.sms.all.last?.plan.recipients.first?.ref)
            try await rig.harness.bus.publish(
                Topic.gatewayReceipt.name(),
                payload: SafeWalkJSON.encode(GatewayReceipt(ref: ref, status: "undelivered", at: Fixtures.now)))
        }
        try await failLatest()
        try await rig.sms.wait(for: "esc-1#fallback1")
        try await failLatest()
        try await rig.hook.wait(for: "esc-1#fallback2")
        #expect(rig.hook.all.first?.body.hasPrefix("SafeWalk could not reach Ana by text") == true)
        try await failLatest()  // the same report again: nothing more
        #expect(try rig.ladderState().recipients.first?.receipt == "undelivered")
        #expect(rig.sms.jobs(of: Self.anaPhone) == ["esc-1", "esc-1#fallback1"])
        await rig.harness.stop()
    }
}

@Suite("The ladder and an erasure", .holdsResources)
struct LadderErasureTests {
    @Test func erasingTheWalkerDeletesTheLaddersRowsAndClearsItsRetainedState() async throws {
        let rig = try await LadderFlowTests.rig()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        try await eventually("delivered") { try await rig.harness.ledger.unfinished().isEmpty }
        #expect(await rig.harness.service.erase(Fixtures.walker) == nil)
        let last = try #require(rig.harness.bus.published(matching: "safewalk/_ladder/alex").last)
        #expect(last.payload.isEmpty && last.retain)
        #expect(try await !rig.harness.ledger.knows("esc-1"))
        // A page of the erased incident no longer acknowledges anything.
        let page = PageToken.digest(try rig.token(of: LadderFlowTests.anaPhone))
        let answer = try await rig.acknowledge(.init(id: "after", via: .page, page: page, at: Fixtures.now))
        #expect(answer.error == .unknownRecipient)
        await rig.harness.stop()
    }
}

extension LadderFlowTests.Rig {
    func ladderCode() throws -> String {
        try #require(sms.all.first?.plan.code)
    }
}
