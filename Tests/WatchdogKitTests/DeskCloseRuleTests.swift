import SafeWalkCore
import Testing
import WatchdogKit

/// The monitoring desk's close (`_desk/close`) in the pure machine, on a virtual clock: a
/// non-duress incident ends as the walker's own `imSafe` ends it; a duress incident closes for the
/// services only, and the device can read no difference; anything else changes nothing.
@Suite struct DeskCloseRuleTests {
    static let pins = PINHashes(salt: [1], cancel: [2], duress: [3])
    static let quietMovement = SafetyThresholds(noMovementAfter: 100_000)
    let alice = WalkerID(validating: "alice")!

    func close(
        _ incident: String, _ reason: DeskCloseReason = .resolved, note: String? = nil, id: String = "d1"
    ) -> WatchEvent {
        .deskClose(
            DeskClose(id: id, walker: alice, incident: incident, reason: reason, note: note, operator: "olga", at: 0))
    }

    func answer(_ failure: DeskCloseResult.Failure?, id: String = "d1", incident: String = "e1") -> WatchAction {
        .answerDesk(DeskCloseResult(id: id, ok: failure == nil, error: failure, walker: alice, incident: incident))
    }

    /// A watched walker (PINs set) whose silence escalated `noReply` at 1,120: incident `e1`.
    func inIncident() -> MachineHarness {
        var h = MachineHarness(thresholds: Self.quietMovement)
        h.watch.pins = Self.pins
        h.act(.start, at: 1_000)
        h.run(until: 1_120)
        return h
    }

    /// `inIncident`, then the walker typed the duress PIN at 1,130: the device saw a cancel, the
    /// services see `e1` open, red, duress.
    func underDuress() -> MachineHarness {
        var h = inIncident()
        h.send(.action(Action(id: "coerced", kind: .imSafe), ActionCheck(pin: .duress)), at: 1_130)
        return h
    }

    /// What the walker's device can read of these actions, as published (the ACL keeps
    /// `{w}/escalation` from it, and `_incidents/{w}` and `_desk/result` are outside its topics).
    func deviceView(_ actions: [WatchAction], at now: EpochSeconds) throws -> [String] {
        try OutboxComposer(prefix: "safewalk", makeID: { "same-id" }).items(for: alice, actions, now: now)
            .filter { $0.topic.hasPrefix("safewalk/alice/") && $0.kind != .escalation }
            .map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))" }
    }

    @Test func aDeskCloseEndsTheIncidentAsTheWalkersImSafeWouldWithoutAPIN() throws {
        var desk = inIncident()
        var walker = inIncident()
        let actions = desk.send(close("e1"), at: 1_200)
        walker.send(.action(Action(id: "safe", kind: .imSafe), ActionCheck(pin: .cancel)), at: 1_200)

        #expect(actions.last == answer(nil))
        #expect(
            desk.incidents.last
                == IncidentState(
                    incident: "e1", walker: alice, state: .closed, reason: .noReply, level: .amber, duress: false,
                    openedAt: 1_120, closedAt: 1_200, closedBy: .desk, closeReason: .resolved))
        // Re-armed exactly as by imSafe: same clocks, same status, from now.
        #expect(desk.watch.timers == walker.watch.timers)
        #expect(desk.watch.timers.lastCheckInAt == 1_200)
        #expect(desk.statuses.last == walker.statuses.last)
        #expect(desk.statuses.last?.state == .safe && desk.statuses.last?.watching == true)
        #expect(desk.watch.incidentForServices == nil)
    }

    @Test func aLaterSilenceEscalatesAgainAsANewIncident() {
        var h = inIncident()
        h.send(close("e1"), at: 1_200)
        h.run(until: 1_319)
        #expect(h.escalations.count == 1, "every clock restarted at the close")
        h.run(until: 1_320)
        #expect(h.escalations.map(\.draft.reason) == [.noReply, .noReply])
        #expect(h.escalations.map(\.draft.incident) == ["e1", "e2"])
        #expect(h.incidents.last?.state == .open && h.incidents.last?.incident == "e2")
    }

    @Test func aDuressCloseChangesNothingTheDeviceReads() throws {
        var desk = underDuress()
        var twin = underDuress()
        let before = desk.watch
        let actions = desk.send(close("e1", .handedToPolice), at: 1_150)

        #expect(try deviceView(actions, at: 1_150).isEmpty, "nothing for the device: \(actions)")
        #expect(
            actions == [
                .publishIncident(
                    IncidentState(
                        incident: "e1", walker: alice, state: .closed, reason: .noReply, level: .red, duress: true,
                        openedAt: 1_120, closedAt: 1_150, closedBy: .desk, closeReason: .handedToPolice)),
                answer(nil),
            ])
        var expected = before
        expected.duress = nil
        #expect(desk.watch == expected, "only the hidden incident went")
        #expect(desk.machine.nextWake(desk.watch) == twin.machine.nextWake(twin.watch))

        // For the next hour the device reads what it would have read without the desk.
        desk.run(until: 4_750)
        twin.run(until: 4_750)
        let later: (MachineHarness) throws -> [String] = { h in
            try h.log.filter { $0.at > 1_130 }.flatMap { try deviceView([$0.action], at: $0.at) }
        }
        #expect(try later(desk) == later(twin))
        #expect(try !later(desk).isEmpty, "the walk went on: check-ins, statuses")
        // Behind the device, the next silence is a new incident, no longer the duress one.
        #expect(desk.escalations.last?.draft.duress == false && desk.escalations.last?.draft.incident == "e3")
        #expect(twin.escalations.last?.draft.incident == "e1")
    }

    /// A later silence while the duress incident was open joined it (same id) and the device saw
    /// it: closing the incident ends that one too, as any close of an incident the device knew.
    @Test func aDuressCloseAlsoEndsTheAlertTheDeviceSawUnderItsID() {
        var h = underDuress()
        h.run(until: 1_250)  // noReply 120 s after the seeming cancel
        #expect(h.watch.incident?.id == "e1" && h.watch.state == .alert)
        let actions = h.send(close("e1", .falseAlarm, note: "Spoke to alice by phone."), at: 1_260)
        #expect(actions.last == answer(nil))
        #expect(h.watch.incident == nil && h.watch.duress == nil && h.watch.state == .safe)
        #expect(h.incidents.last?.closedBy == .desk && h.incidents.last?.duress == true)
    }

    @Test(arguments: [nil, "", "   \n "])
    func aDuressFalseAlarmNeedsANote(note: String?) {
        var h = underDuress()
        let before = h.watch
        let actions = h.send(close("e1", .falseAlarm, note: note), at: 1_150)
        #expect(actions == [answer(.noteRequired)])
        #expect(h.watch == before)
        let noted = h.send(close("e1", .falseAlarm, note: "She sat on it.", id: "d2"), at: 1_151)
        #expect(noted.last == answer(nil, id: "d2"))
    }

    @Test func aFalseAlarmThatIsNotDuressNeedsNoNote() {
        var h = inIncident()
        #expect(h.send(close("e1", .falseAlarm), at: 1_150).last == answer(nil))
    }

    @Test func aCloseOfAnotherIncidentIsNotOpenAndChangesNothing() {
        var h = inIncident()
        let before = h.watch
        #expect(h.send(close("e0"), at: 1_150) == [answer(.notOpen, incident: "e0")])
        #expect(h.watch == before)
    }

    @Test func aCloseWithNoIncidentIsNotOpen() {
        var h = MachineHarness()
        h.act(.start, at: 1_000)
        let before = h.watch
        #expect(h.send(close("e1"), at: 1_010) == [answer(.notOpen)])
        #expect(h.watch == before)
    }

    @Test func aRepeatOfAnAppliedCloseIsNotOpen() {
        var h = inIncident()
        h.send(close("e1"), at: 1_150)
        let after = h.watch
        let published = h.incidents.count
        #expect(h.send(close("e1"), at: 1_151) == [answer(.notOpen)])
        #expect(h.watch == after && h.incidents.count == published)
    }

    @Test func aCloseForAWalkerNeverSeenMakesNoWatch() {
        var engine = WatchEngine(machine: WatchMachine())
        let step = engine.closeForDesk(
            DeskClose(id: "d1", walker: alice, incident: "e1", reason: .resolved, operator: "olga", at: 0), now: 1_000)
        #expect(step.actions == [answer(.notOpen)])
        #expect(!step.changed && engine.count == 0)
    }
}
