import SafeWalkCore
import Testing
import WatchdogKit

/// An incident's life as the services see it (`_incidents/{w}`): its id is its first
/// escalation's, every later escalation carries it, and each change is published once. Under
/// duress the device sees a cancel while the services see the same incident go on, red.
@Suite struct IncidentLifeTests {
    static let pins = PINHashes(salt: [1], cancel: [2], duress: [3])

    func state(
        _ incident: String, _ phase: IncidentState.Phase = .open, reason: EscalationReason, level: EscalationLevel,
        duress: Bool = false, openedAt: EpochSeconds, closedAt: EpochSeconds? = nil,
        closedBy: IncidentState.Closer? = nil
    ) -> IncidentState {
        IncidentState(
            incident: incident, walker: WalkerID(validating: "alice")!, state: phase, reason: reason, level: level,
            duress: duress, openedAt: openedAt, closedAt: closedAt, closedBy: closedBy)
    }

    @Test func anIncidentOpensIsRaisedAndClosesUnderItsFirstEscalationsID() {
        var h = MachineHarness()
        h.act(.panic(.amber), at: 1_000)
        h.act(.panic(.red), at: 1_002)
        h.act(.imSafe, at: 1_010)
        #expect(h.escalations.map(\.draft.id) == ["e1", "e2"])
        #expect(h.escalations.map(\.draft.incident) == ["e1", "e1"])
        #expect(
            h.incidents == [
                state("e1", reason: .panic, level: .amber, openedAt: 1_000),
                state("e1", reason: .panic, level: .red, openedAt: 1_000),
                state(
                    "e1", .closed, reason: .panic, level: .red, openedAt: 1_000, closedAt: 1_010, closedBy: .imSafe),
            ])
        #expect(h.watch.incidentForServices == nil)
    }

    @Test(arguments: [(Action.Kind.stop, IncidentState.Closer.stop), (.arrived, .arrived)])
    func stopAndArrivedCloseItAndSaySo(kind: Action.Kind, closer: IncidentState.Closer) {
        var h = MachineHarness()
        h.act(.startWalk(destination: "Library", minutes: 10), at: 1_000)
        h.act(.needHelp, at: 1_005)
        h.act(kind, at: 1_020)
        #expect(
            h.incidents.last
                == state(
                    "e1", .closed, reason: .needHelp, level: .red, openedAt: 1_005, closedAt: 1_020, closedBy: closer))
    }

    @Test func aSecondIncidentAfterACloseHasANewID() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.act(.start, at: 1_000)
        h.run(until: 1_120)  // noReply
        h.act(.imSafe, at: 1_130)
        h.run(until: 1_250)  // noReply again, 120 s after the imSafe
        #expect(h.escalations.map(\.draft.incident) == ["e1", "e2"])
        #expect(h.incidents.map(\.incident) == ["e1", "e1", "e2"])
        #expect(h.incidents.map(\.state) == [.open, .closed, .open])
    }

    @Test func replayingTheSameActionChangesNothing() {
        var h = MachineHarness()
        h.act(.needHelp, at: 1_000, id: "help")
        let before = h.watch
        let repeated = h.act(.needHelp, at: 1_001, id: "help")
        #expect(repeated == [.answer(ActionResult(id: "help", ok: true))])
        #expect(h.watch == before)
        h.act(.imSafe, at: 1_002, id: "safe")
        let closed = h.incidents.count
        let again = h.act(.imSafe, at: 1_003, id: "safe")
        #expect(again == [.answer(ActionResult(id: "safe", ok: true))])
        #expect(h.incidents.count == closed && h.escalations.count == 1)
    }

    @Test func aCryDuringARedIncidentPublishesNothingNew() {
        var h = MachineHarness()
        h.act(.needHelp, at: 1_000)
        h.act(.panic(.red), at: 1_001)
        h.act(.needHelp, at: 1_002)
        #expect(h.incidents.count == 1 && h.escalations.count == 1)
    }

    /// The held switch fires (a due timer) and the event of the same step ends the incident: the
    /// services still see it open, then closed.
    @Test func anIncidentOpenedAndClosedInOneStepIsPublishedOpenThenClosed() {
        var h = MachineHarness(thresholds: SafetyThresholds(holdHeartbeat: 3))
        h.act(.hold(.red), at: 1_000)
        let actions = h.send(.action(Action(id: "safe", kind: .imSafe)), at: 1_006)
        #expect(h.escalations.map(\.draft.reason) == [.panic])
        #expect(h.incidents.map(\.state) == [.open, .closed])
        #expect(h.incidents.allSatisfy { $0.incident == "e1" })
        #expect(actions.filter { if case .publishIncident = $0 { true } else { false } }.count == 2)
    }

    /// The walker "cancels" an amber incident with the duress PIN: the device sees what a cancel
    /// shows; the services see the same incident, red and flagged; later escalations belong to it;
    /// only the cancel PIN closes it.
    @Test func aDuressPINKeepsTheIncidentOpenForServicesUnderItsID() {
        var h = MachineHarness(thresholds: SafetyThresholds(noMovementAfter: 100_000))
        h.watch.pins = Self.pins
        h.act(.start, at: 1_000)
        h.run(until: 1_120)  // noReply: e1
        h.send(.action(Action(id: "end", kind: .imSafe), ActionCheck(pin: .duress)), at: 1_130)
        #expect(h.watch.state == .safe)  // the device's view: a cancel
        #expect(h.escalations.last?.draft.duress == true)
        #expect(h.escalations.last?.draft.incident == "e1")
        #expect(h.incidents.last == state("e1", reason: .noReply, level: .red, duress: true, openedAt: 1_120))
        let published = h.incidents.count
        h.run(until: 1_250)  // a silence after the "cancel" escalates as it would have: e3, same incident
        #expect(h.escalations.last?.draft.id == "e3")
        #expect(h.escalations.last?.draft.incident == "e1")
        #expect(h.incidents.count == published, "the services' incident did not change")
        h.send(.action(Action(id: "real", kind: .imSafe), ActionCheck(pin: .cancel)), at: 1_260)
        #expect(
            h.incidents.last
                == state(
                    "e1", .closed, reason: .noReply, level: .red, duress: true, openedAt: 1_120, closedAt: 1_260,
                    closedBy: .imSafe))
    }

    @Test func aDuressPINWithNothingOpenOpensAnIncidentUnderItsOwnEscalation() {
        var h = MachineHarness()
        h.watch.pins = Self.pins
        let change = Action(id: "p", kind: .clearPins)
        h.send(.action(change, ActionCheck(pin: .duress)), at: 1_000)
        #expect(h.escalations.map(\.draft.id) == ["e1"])
        #expect(h.escalations.first?.draft.incident == "e1")
        #expect(h.incidents == [state("e1", reason: .panic, level: .red, duress: true, openedAt: 1_000)])
        #expect(h.watch.status(h.machine.thresholds).state == .safe)
    }

    /// A duress PIN while the incident stays open for the device (changing PINs does not end it):
    /// one incident, now red and flagged for the services.
    @Test func aDuressPINWhileTheIncidentStaysOpenRaisesTheSameIncident() {
        var h = MachineHarness()
        h.watch.pins = Self.pins
        h.act(.panic(.amber), at: 1_000)
        let change = Action(id: "p", kind: .setPins(PINChange(cancel: PIN("5678")!, duress: nil)))
        h.send(.action(change, ActionCheck(pin: .duress, newPins: Self.pins)), at: 1_010)
        #expect(h.escalations.map(\.draft.incident) == ["e1", "e1"])
        #expect(
            h.incidents == [
                state("e1", reason: .panic, level: .amber, openedAt: 1_000),
                state("e1", reason: .panic, level: .red, duress: true, openedAt: 1_000),
            ])
    }
}
