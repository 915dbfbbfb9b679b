import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import TestSupport
import Testing

/// "I'm on it" from the SafeWalk app (`via: app`, published by contacts-store once it checked
/// that `user` is an SOS contact of `walker`): it acknowledges the walker's latest open incident
/// exactly as a page's button does, under the user's id, who is on no ladder.
@Suite("An acknowledgement from the app")
struct LadderAppAcknowledgementTests {
    static let bob = WalkerID(validating: "bob")!

    static func fromApp(_ id: String, user: WalkerID? = bob, walker: WalkerID? = Fixtures.walker)
        -> AcknowledgementRequest
    {
        AcknowledgementRequest(id: id, via: .app, user: user, walker: walker, at: Fixtures.now)
    }

    @Test func aUsersAcknowledgementStopsTheClimbAndEveryoneToldHearsWhoIsHandlingIt() async throws {
        let rig = try await LadderFlowTests.rig()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        let result = try await rig.acknowledge(Self.fromApp("app-1"))
        #expect(
            result
                == AcknowledgementResult(id: "app-1", ok: true, walker: Fixtures.walker, incident: "esc-1", by: "bob"))
        // bob is nobody's number: both contacts told by text hear it, nobody is left out.
        try await rig.sms.wait(for: "esc-1#ack", count: 2)
        #expect(
            Set(rig.sms.all.filter { $0.job == "esc-1#ack" }.map(\.key))
                == [LadderFlowTests.anaPhone, LadderFlowTests.calPhone])
        #expect(rig.sms.all.first { $0.job == "esc-1#ack" }?.body.hasPrefix("bob is handling it (alex).") == true)
        try await eventually("the walker told") { try rig.alerts().count == 2 }
        #expect(try rig.alerts().last?.title == "bob is on it")
        let state = try rig.ladderState()
        #expect(state.acknowledgement?.by == "bob" && state.acknowledgement?.via == .app)
        #expect(state.timeline.contains { $0.kind == .acknowledged && $0.text == "bob is on it" })
        #expect(!state.recipients.contains { $0.name == "bob" }, "an acknowledger, not a recipient")

        // The same request again (a redelivery): the same answer, nobody told twice.
        #expect(try await rig.acknowledge(Self.fromApp("app-1")) == result)
        rig.advance(to: 300)  // tier 2's wait passed while the acknowledgement stands
        #expect(try await !rig.harness.ledger.knows("esc-1#tier2"))
        #expect(rig.sms.all.filter { $0.job.hasPrefix("esc-1#ack") }.count == 2)
        await rig.harness.stop()
    }

    @Test func theClimbResumesWhenTheAppsAcknowledgementIsOldAndTheIncidentStillOpen() async throws {
        let rig = try await LadderFlowTests.rig()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        #expect(try await rig.acknowledge(Self.fromApp("app-1")).ok)
        try await rig.sms.wait(for: "esc-1#ack", count: 2)
        rig.advance(to: 600)
        try await rig.sms.wait(for: "esc-1#resume1", count: 2)
        try await eventually("the acknowledgement gone") { try rig.ladderState().acknowledgement == nil }
        // A page's button now acknowledges afresh, and bob, who was never texted, is not told.
        let page = PageToken.digest(try rig.token(of: LadderFlowTests.anaPhone))
        let again = try await rig.acknowledge(.init(id: "ack-2", via: .page, page: page, at: Fixtures.now))
        #expect(again.by == "Ana")
        try await rig.sms.wait(for: "esc-1#ack2")
        #expect(rig.sms.all.filter { $0.job == "esc-1#ack2" }.map(\.key) == [LadderFlowTests.calPhone])
        await rig.harness.stop()
    }

    @Test func afterADuressPINTheWalkersDeviceHearsNothingButTheContactsDo() async throws {
        let rig = try await LadderFlowTests.rig()
        var event = Fixtures.escalation()
        event.duress = true
        try await rig.harness.publish(event)
        try await rig.sms.wait(for: "esc-1", count: 2)
        let result = try await rig.acknowledge(Self.fromApp("app-1"))
        #expect(result.ok && result.by == "bob")
        try await rig.sms.wait(for: "esc-1#ack", count: 2)
        #expect(rig.sms.all.first { $0.job == "esc-1#ack" }?.body.hasPrefix("bob is handling it") == true)
        #expect(try rig.alerts().isEmpty)
        #expect(try await !rig.harness.ledger.progress(of: "esc-1#ack").contains { $0.channel == "device" })
        await rig.harness.stop()
    }

    @Test func aWalkerWithoutAnIncidentOrWithAClosedOneIsAnsweredSo() async throws {
        let rig = try await LadderFlowTests.rig()
        let nobody = try await rig.acknowledge(Self.fromApp("app-0"))
        #expect(nobody == AcknowledgementResult(id: "app-0", ok: false, error: .unknownRecipient))
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        try await rig.close()
        try await eventually("closed") { try rig.ladderState().state == .closed }
        let late = try await rig.acknowledge(Self.fromApp("app-1"))
        #expect(
            late
                == AcknowledgementResult(
                    id: "app-1", ok: false, error: .closed, walker: Fixtures.walker, incident: "esc-1"))
        // Another walker's incident is not alex's.
        let other = try await rig.acknowledge(Self.fromApp("app-2", walker: WalkerID(validating: "alexa")!))
        #expect(other.error == .unknownRecipient)
        #expect(!rig.sms.all.contains { $0.job.hasPrefix("esc-1#ack") })
        await rig.harness.stop()
    }

    @Test func theLatestOpenIncidentIsTheOneAcknowledgedAClosedOneNeverWhileAnotherIsOpen() async throws {
        let rig = try await LadderFlowTests.rig(contacts: [LadderFlowTests.ana])
        try await rig.harness.publish(Fixtures.escalation("esc-1"))
        try await rig.sms.wait(for: "esc-1")
        try await rig.harness.publish(Fixtures.escalation("esc-2"))
        try await rig.sms.wait(for: "esc-2")
        #expect(try await rig.acknowledge(Self.fromApp("app-1")).incident == "esc-2")
        try await rig.close("esc-2")
        try await rig.sms.wait(for: "esc-2#allclear")
        let older = try await rig.acknowledge(Self.fromApp("app-2"))
        #expect(older.ok && older.incident == "esc-1")
        await rig.harness.stop()
    }

    @Test func anAppRequestWithoutItsUserOrWalkerIsRefusedByID() async throws {
        let rig = try await LadderFlowTests.rig()
        try await rig.harness.publish(Fixtures.escalation())
        try await rig.sms.wait(for: "esc-1", count: 2)
        #expect(try await rig.acknowledge(Self.fromApp("app-1", user: nil)).error == .refused)
        #expect(try await rig.acknowledge(Self.fromApp("app-2", walker: nil)).error == .refused)
        #expect(try rig.ladderState().acknowledgement == nil)
        await rig.harness.stop()
    }

    @Test func theIntakeReadsUserAndWalkerAsWalkerIDs() {
        func classify(_ text: String) -> Result<AcknowledgementRequest, LadderIntake.Refusal> {
            LadderIntake.acknowledgement(MQTTMessage(topic: "safewalk/_acks/request", payload: Data(text.utf8)))
        }
        let good = try? classify(#"{"at":1,"id":"a1","user":"bob","v":1,"via":"app","walker":"alice"}"#).get()
        #expect(good?.user == Self.bob && good?.walker == WalkerID(validating: "alice"))
        for (id, text) in [
            ("a2", #"{"at":1,"id":"a2","v":1,"via":"app","walker":"alice"}"#),
            ("a3", #"{"at":1,"id":"a3","user":"bob","v":1,"via":"app"}"#),
            ("a4", #"{"at":1,"id":"a4","user":"bob/#","v":1,"via":"app","walker":"alice"}"#),
            ("a5", #"{"at":1,"id":"a5","user":"bob","v":1,"via":"app","walker":""}"#),
            ("a6", #"{"at":1,"id":"a6","phone":"+15125550101","v":1,"via":"app"}"#),
        ] {
            guard case .failure(let refusal) = classify(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(refusal.id == id, "\(text)")
        }
    }
}
