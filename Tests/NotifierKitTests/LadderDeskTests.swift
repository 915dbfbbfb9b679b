import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// The monitoring desk in the notifier (docs/CONTRACT.md, "The monitoring desk"): its
/// acknowledgement (`via: desk`, published by `web` for an operator at `/ops`) stands under the
/// desk's name, and its close (`closedBy: desk` on `_incidents/{w}`) tells everyone told, once,
/// who closed the alert and why. The walker's phone hears of either only through
/// `DeviceDisclosure`: never about a duress incident.
@Suite("The monitoring desk in the ladder", .holdsResources)
struct LadderDeskTests {
    static let olga = WalkerID(validating: "olga")!

    static func fromDesk(_ id: String, user: WalkerID? = olga, walker: WalkerID? = Fixtures.walker)
        -> AcknowledgementRequest
    {
        AcknowledgementRequest(id: id, via: .desk, user: user, walker: walker, at: Fixtures.now)
    }

    /// An escalation told to Ana and Cal (tier 1), duress or not.
    static func escalated(duress: Bool = false, settings: [String: String] = [:]) async throws -> LadderFlowTests.Rig {
        let rig = try await LadderFlowTests.rig(settings: settings)
        var event = Fixtures.escalation()
        event.duress = duress
        try await rig.harness.publish(event)
        try await rig.sms.wait(for: "esc-1", count: 2)
        return rig
    }

    @Test func theDesksAcknowledgementStopsTheClimbUnderTheDesksName() async throws {
        let rig = try await Self.escalated()
        let result = try await rig.acknowledge(Self.fromDesk("desk-1"))
        #expect(
            result
                == AcknowledgementResult(
                    id: "desk-1", ok: true, walker: Fixtures.walker, incident: "esc-1", by: "the campus desk"))
        // The desk is nobody's number: everyone told hears it, under the desk's name, not olga's.
        try await rig.sms.wait(for: "esc-1#ack", count: 2)
        let texts = rig.sms.all.filter { $0.job == "esc-1#ack" }
        #expect(Set(texts.map(\.key)) == [LadderFlowTests.anaPhone, LadderFlowTests.calPhone])
        #expect(texts.allSatisfy { $0.body.hasPrefix("The campus desk is handling it (alex).") })
        #expect(!texts.contains { $0.body.contains("olga") })
        try await eventually("the walker told") { try rig.alerts().count == 2 }
        let alert = try #require(try rig.alerts().last)
        #expect(alert.title == "The campus desk is on it")
        #expect(alert.body == "The campus desk is on it: they got your alert.")

        let state = try rig.ladderState()
        #expect(state.acknowledgement?.by == "the campus desk" && state.acknowledgement?.via == .desk)
        #expect(state.timeline.contains { $0.kind == .acknowledged && $0.text == "the campus desk is on it (olga)" })
        #expect(!state.recipients.contains { $0.name == "olga" || $0.name == "the campus desk" })

        rig.advance(to: 300)  // tier 2's wait passed while the desk's acknowledgement stands
        #expect(try await !rig.harness.ledger.knows("esc-1#tier2"))
        #expect(try await rig.acknowledge(Self.fromDesk("desk-1")) == result)
        #expect(rig.sms.all.filter { $0.job.hasPrefix("esc-1#ack") }.count == 2)
        await rig.harness.stop()
    }

    @Test func theDesksNameComesFromItsSetting() async throws {
        let rig = try await Self.escalated(settings: [DeskName.environmentKey: "the night desk"])
        #expect(try await rig.acknowledge(Self.fromDesk("desk-1")).by == "the night desk")
        try await eventually("the walker told") { try rig.alerts().count == 2 }
        #expect(try rig.alerts().last?.title == "The night desk is on it")
        await rig.harness.stop()
    }

    @Test func afterADuressPINTheDesksAcknowledgementTellsTheDeviceNothing() async throws {
        let rig = try await Self.escalated(duress: true)
        let result = try await rig.acknowledge(Self.fromDesk("desk-1"))
        #expect(result.ok && result.by == "the campus desk")
        try await rig.sms.wait(for: "esc-1#ack", count: 2)
        #expect(try rig.ladderState().acknowledgement?.via == .desk)
        #expect(try rig.alerts().isEmpty)
        #expect(try await !rig.harness.ledger.progress(of: "esc-1#ack").contains { $0.channel == "device" })
        await rig.harness.stop()
    }

    @Test func aDeskRequestWithoutItsOperatorOrWalkerIsRefusedByID() async throws {
        let rig = try await Self.escalated()
        #expect(try await rig.acknowledge(Self.fromDesk("desk-1", user: nil)).error == .refused)
        #expect(try await rig.acknowledge(Self.fromDesk("desk-2", walker: nil)).error == .refused)
        let nobody = try await rig.acknowledge(Self.fromDesk("desk-3", walker: WalkerID(validating: "alexa")!))
        #expect(nobody == AcknowledgementResult(id: "desk-3", ok: false, error: .unknownRecipient))
        #expect(try rig.ladderState().acknowledgement == nil)
        await rig.harness.stop()
    }

    @Test func aClosedIncidentIsAnsweredClosed() async throws {
        let rig = try await Self.escalated()
        try await rig.closeByDesk(.resolved)
        try await eventually("closed") { try rig.ladderState().state == .closed }
        let late = try await rig.acknowledge(Self.fromDesk("desk-1"))
        #expect(late.error == .closed && late.incident == "esc-1")
        await rig.harness.stop()
    }

    @Test func theDesksCloseTellsEveryoneToldOnceWhoClosedItAndWhy() async throws {
        let rig = try await Self.escalated()
        try await rig.closeByDesk(.falseAlarm)
        try await rig.closeByDesk(.falseAlarm)  // retained, redelivered
        try await rig.sms.wait(for: "esc-1#allclear", count: 2)
        try await eventually("the walker told") { try rig.alerts().count == 2 }
        try await rig.closeByDesk(.falseAlarm)
        rig.advance(to: 1000)
        try await eventually("delivered") { try await rig.harness.ledger.unfinished().isEmpty }

        let clears = rig.sms.all.filter { $0.job == "esc-1#allclear" }
        #expect(clears.map(\.key).sorted() == [LadderFlowTests.anaPhone, LadderFlowTests.calPhone])
        #expect(clears.allSatisfy { $0.body.hasPrefix("The campus desk closed alex's alert (false alarm) at 08:00.") })
        #expect(!rig.sms.all.contains { $0.key == LadderFlowTests.benPhone }, "never told, never all-cleared")
        let alerts = try rig.alerts()
        #expect(alerts.count == 2, "the first alert, then the desk's close, once")
        #expect(
            alerts.last
                == DeviceAlert(title: "The campus desk closed your alert", body: "Reason: false alarm.", actions: []))
        let state = try rig.ladderState()
        #expect(state.state == .closed)
        #expect(state.timeline.last?.text == "The campus desk closed alex's alert (false alarm) at 08:00")
        await rig.harness.stop()
    }

    @Test func theDesksCloseOfADuressIncidentTellsTheContactsButNeverTheDevice() async throws {
        let rig = try await Self.escalated(duress: true)
        try await rig.closeByDesk(.falseAlarm, duress: true)
        try await rig.sms.wait(for: "esc-1#allclear", count: 2)
        try await eventually("delivered") { try await rig.harness.ledger.unfinished().isEmpty }
        #expect(rig.sms.all.first { $0.job == "esc-1#allclear" }?.body.hasPrefix("The campus desk closed") == true)
        #expect(try rig.alerts().isEmpty)
        #expect(try await !rig.harness.ledger.progress(of: "esc-1#allclear").contains { $0.channel == "device" })
        await rig.harness.stop()
    }

    @Test func aRepeatedDeskCloseAfterARestartSendsNothingMore() async throws {
        let database = try SQLiteStore.temporary(migrator: DeliveryLedger.migrator)
        let first = try await LadderFlowTests.rig(database: database)
        try await first.harness.publish(Fixtures.escalation())
        try await first.sms.wait(for: "esc-1", count: 2)
        try await first.closeByDesk(.handedToPolice)
        try await first.sms.wait(for: "esc-1#allclear", count: 2)
        try await eventually("delivered") { try await first.harness.ledger.unfinished().isEmpty }
        #expect(try first.alerts().last?.body == "Reason: handed to police.")
        await first.harness.stop(keepingDatabase: true)

        // The watchdog's retained `closed` comes again to the restarted notifier, and so does the
        // escalation. A later incident, closed after them on the same topic, shows they were read.
        let second = try await LadderFlowTests.rig(database: database)
        try await second.closeByDesk(.handedToPolice)
        try await second.harness.publish(Fixtures.escalation())
        try await second.harness.publish(Fixtures.escalation("esc-2"))
        try await second.sms.wait(for: "esc-2", count: 2)
        try await second.closeByDesk(.resolved, "esc-2")
        try await second.sms.wait(for: "esc-2#allclear", count: 2)
        try await eventually("nothing pending") { try await second.harness.ledger.unfinished().isEmpty }
        await second.harness.stop()
        #expect(!second.sms.all.contains { $0.job.hasPrefix("esc-1") })
        let alerts = try second.alerts()  // esc-2's alert and its close: nothing of esc-1 again
        #expect(alerts.count == 2)
        #expect(
            alerts.last
                == DeviceAlert(title: "The campus desk closed your alert", body: "Reason: resolved.", actions: []))
    }

    @Test func aDeskCloseBeforeTheEscalationArrivesStillSaysTheDeskClosedIt() async throws {
        let rig = try await LadderFlowTests.rig(contacts: [LadderFlowTests.ana])
        try await rig.closeByDesk(.resolved)
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1#allclear")
        #expect(rig.sms.jobs(of: LadderFlowTests.anaPhone) == ["esc-1", "esc-1#allclear"])
        #expect(rig.sms.all.last?.body.hasPrefix("The campus desk closed alex's alert (resolved)") == true)
        try await eventually("the walker told") { try rig.alerts().count == 2 }
        #expect(try rig.alerts().last?.title == "The campus desk closed your alert")
        await rig.harness.stop()
    }

    @Test func theWalkersOwnCloseIsUnchanged() async throws {
        let rig = try await Self.escalated()
        try await rig.close()
        try await rig.sms.wait(for: "esc-1#allclear", count: 2)
        try await eventually("delivered") { try await rig.harness.ledger.unfinished().isEmpty }
        #expect(
            rig.sms.all.first { $0.job == "esc-1#allclear" }?.body.hasPrefix("alex is safe (at 08:00). Thank you.")
                == true)
        #expect(try rig.alerts().count == 1, "the walker closed it: nothing more for the phone")
        #expect(try await !rig.harness.ledger.progress(of: "esc-1#allclear").contains { $0.channel == "device" })
        await rig.harness.stop()
    }

    @Test func theIntakeTreatsADeskRequestLikeAnAppOne() {
        func classify(_ text: String) -> Result<AcknowledgementRequest, LadderIntake.Refusal> {
            LadderIntake.acknowledgement(MQTTMessage(topic: "safewalk/_acks/request", payload: Data(text.utf8)))
        }
        let good = try? classify(#"{"at":1,"id":"d1","user":"olga","v":1,"via":"desk","walker":"alice"}"#).get()
        #expect(good?.via == .desk && good?.user == Self.olga)
        for (id, text) in [
            ("d2", #"{"at":1,"id":"d2","v":1,"via":"desk","walker":"alice"}"#),
            ("d3", #"{"at":1,"id":"d3","user":"olga","v":1,"via":"desk"}"#),
            ("d4", #"{"at":1,"id":"d4","user":"olga/#","v":1,"via":"desk","walker":"alice"}"#),
        ] {
            guard case .failure(let refusal) = classify(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(refusal.id == id, "\(text)")
        }
    }
}

extension LadderFlowTests.Rig {
    /// The watchdog's `closed` after the desk's `_desk/close` (retained, as it publishes it).
    func closeByDesk(_ reason: DeskCloseReason, _ incident: String = "esc-1", duress: Bool = false) async throws {
        let state = IncidentState(
            incident: incident, walker: Fixtures.walker, state: .closed, reason: .needHelp, level: .red,
            duress: duress, openedAt: Fixtures.now, closedAt: ladder.now(), closedBy: .desk, closeReason: reason)
        try await harness.bus.publish(
            Topic.incident(Fixtures.walker).name(), payload: SafeWalkJSON.encode(state), retain: true)
    }
}
