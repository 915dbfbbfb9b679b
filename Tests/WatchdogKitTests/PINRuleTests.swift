import SafeWalkCore
import Testing
import WatchdogKit

/// Cancel and duress PINs, with the verdict the shell worked out (hashing is the shell's; see
/// PINHasherTests). With a cancel PIN set, ending an incident needs it; the duress PIN gets
/// exactly what a cancel gets on the device, while a red, flagged incident goes to contacts.
@Suite struct PINRuleTests {
    static let pins = PINHashes(salt: [1], cancel: [2], duress: [3])

    /// A watched walker with PINs set and an amber incident (noReply at 1,120).
    func inIncident(_ thresholds: SafetyThresholds = SafetyThresholds(noMovementAfter: 100_000)) -> MachineHarness {
        var h = MachineHarness(thresholds: thresholds)
        h.watch.pins = Self.pins
        h.act(.start, at: 1_000)
        h.run(until: 1_120)
        return h
    }

    @discardableResult
    func end(
        _ h: inout MachineHarness, _ kind: Action.Kind, _ pin: PINVerdict, at time: EpochSeconds,
        id: String = "end"
    ) -> [WatchAction] {
        h.send(.action(Action(id: id, kind: kind), ActionCheck(pin: pin)), at: time)
    }

    @discardableResult
    func end(_ h: inout MachineHarness, _ pin: PINVerdict, at time: EpochSeconds, id: String = "end") -> [WatchAction] {
        end(&h, .imSafe, pin, at: time, id: id)
    }

    @Test func endingAnIncidentNeedsTheCancelPIN() {
        var h = inIncident()
        let refused = end(&h, .notGiven, at: 1_130, id: "a")
        #expect(refused == [.answer(ActionResult(id: "a", ok: false, error: .pinRequired))])
        #expect(h.watch.state == .alert)
        let done = end(&h, .cancel, at: 1_131, id: "b")
        #expect(done.first == .answer(ActionResult(id: "b", ok: true)))
        #expect(h.watch.state == .safe)
    }

    @Test func withoutAnIncidentStopNeedsNoPIN() {
        var h = MachineHarness()
        h.watch.pins = Self.pins
        h.act(.start, at: 1_000)
        let actions = end(&h, .stop, .notGiven, at: 1_010)
        #expect(actions.first == .answer(ActionResult(id: "end", ok: true)))
        #expect(!h.watch.isWatching)
    }

    @Test func threeWrongPINsEscalateRed() {
        var h = inIncident()
        for n in 0..<2 {
            let actions = end(&h, .wrong, at: 1_130 + Double(n), id: "w\(n)")
            #expect(actions == [.answer(ActionResult(id: "w\(n)", ok: false, error: .wrongPIN))])
        }
        end(&h, .wrong, at: 1_140, id: "w2")
        #expect(h.escalations.map(\.draft.reason) == [.noReply, .wrongPin])
        #expect(h.escalations.last?.draft.level == .red)
        #expect(h.watch.state == .alert)
    }

    @Test func theRightPINResetsTheWrongCount() {
        var h = inIncident()
        end(&h, .wrong, at: 1_130, id: "w0")
        end(&h, .wrong, at: 1_131, id: "w1")
        end(&h, .cancel, at: 1_132, id: "ok")
        #expect(h.watch.wrongPins == 0)
    }

    @Test func duressRaisesARedFlaggedIncidentForContactsAndEndsItForTheDevice() {
        var h = inIncident()
        let actions = end(&h, .duress, at: 1_130)
        // After everything the device sees: the escalation, then the services' incident state.
        guard actions.count >= 2, case .escalate(let draft) = actions[actions.count - 2],
            case .publishIncident(let incident) = actions[actions.count - 1]
        else {
            Issue.record("the duress escalation and incident state go out last: \(actions)"); return
        }
        #expect(draft.duress && draft.level == .red && draft.reason == .noReply)
        #expect(incident.duress && incident.level == .red && incident.state == .open)
        #expect(h.watch.state == .safe)
        #expect(h.watch.duress != nil)
        #expect(h.watch.incident == nil)
    }

    /// The heart of the duress rule: what the device can see after a duress PIN is what it sees
    /// after a cancel, action for action, byte for byte, for the next hour of the walk.
    @Test(arguments: [Action.Kind.imSafe, .stop, .arrived])
    func theDeviceSeesTheSameAfterDuressAsAfterCancel(kind: Action.Kind) throws {
        var cancelled = inIncident()
        var coerced = inIncident()
        let afterCancel = end(&cancelled, kind, .cancel, at: 1_130)
        let afterDuress = end(&coerced, kind, .duress, at: 1_130)
        cancelled.run(until: 4_730)
        coerced.run(until: 4_730)
        let composer = OutboxComposer(prefix: "safewalk", makeID: { "same-id" })
        func deviceView(_ actions: [WatchAction], at: EpochSeconds) throws -> [String] {
            try composer.items(for: try WalkerID("alice"), actions, now: at)
                // Neither `{w}/escalation` (ACL) nor `_incidents/{w}` (outside its topics) is readable
                // by the device.
                .filter { $0.kind != .escalation && $0.kind != .incident }
                .map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))" }
        }
        #expect(try deviceView(afterCancel, at: 1_130) == deviceView(afterDuress, at: 1_130))
        let later: (MachineHarness) throws -> [String] = { h in
            try h.log.filter { $0.at > 1_130 }.flatMap { try deviceView([$0.action], at: $0.at) }
        }
        #expect(try later(cancelled) == later(coerced))
        #expect(
            cancelled.watch.status(cancelled.machine.thresholds) == coerced.watch.status(coerced.machine.thresholds))
        // And behind the device: only the duress walk has a red, flagged escalation.
        #expect(coerced.escalations.filter(\.draft.duress).count == 1)
        #expect(cancelled.escalations.filter(\.draft.duress).isEmpty)
    }

    @Test func aRepeatedDuressIsAnsweredLikeARepeatedCancelAndRaisedOnce() {
        var h = inIncident()
        end(&h, .duress, at: 1_130, id: "x")
        let repeated = end(&h, .duress, at: 1_131, id: "x")
        #expect(repeated == [.answer(ActionResult(id: "x", ok: true))])
        #expect(h.escalations.filter(\.draft.duress).count == 1)
    }

    @Test func onlyTheCancelPINEndsTheDuressIncident() {
        var h = inIncident()
        end(&h, .duress, at: 1_130)
        end(&h, .stop, .notGiven, at: 1_140, id: "plain stop")
        #expect(h.watch.duress != nil, "a stop without the cancel PIN leaves contacts' red incident open")
        h.act(.start, at: 1_150)
        end(&h, .stop, .cancel, at: 1_160, id: "real stop")
        #expect(h.watch.duress == nil)
    }

    @Test func changingPINsNeedsTheCurrentCancelPIN() {
        var h = MachineHarness()
        let first = PINHashes(salt: [9], cancel: [8], duress: nil)
        let set = h.send(
            .action(
                Action(id: "p1", kind: .setPins(PINChange(cancel: PIN("1234")!, duress: nil))),
                ActionCheck(newPins: first)), at: 1_000)
        #expect(set == [.answer(ActionResult(id: "p1", ok: true))])
        #expect(h.watch.pins == first)
        let change = Action(id: "p2", kind: .setPins(PINChange(cancel: PIN("5678")!, duress: PIN("9999")!)))
        let refused = h.send(.action(change, ActionCheck(pin: .notGiven, newPins: Self.pins)), at: 1_010)
        #expect(refused == [.answer(ActionResult(id: "p2", ok: false, error: .pinRequired))])
        #expect(h.watch.pins == first)
        h.send(.action(Action(id: "p3", kind: change.kind), ActionCheck(pin: .cancel, newPins: Self.pins)), at: 1_020)
        #expect(h.watch.pins == Self.pins)
        h.send(.action(Action(id: "p4", kind: .clearPins), ActionCheck(pin: .cancel)), at: 1_030)
        #expect(h.watch.pins == nil)
    }
}
