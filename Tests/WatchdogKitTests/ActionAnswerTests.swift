import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing
import WatchdogKit

/// The real ``WatchdogService`` (in-memory bus, real SQLite, real PBKDF2): every action is
/// answered once recorded, repeats are answered again and applied once, refused input is
/// answered on the device's own `{w}/rejected`, and the device cannot tell duress from cancel.
@Suite(.holdsResources) struct ActionAnswerTests {
    @Test func anActionIsAnsweredOnceRecordedAndARepeatIsAnsweredAgainButAppliedOnce() async throws {
        let h = try await ServiceHarness()
        let answers = try await h.bus.subscribe("safewalk/alice/action/result", qos: .atLeastOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        try await h.act("alice", .needHelp, id: "help-1")
        #expect(try await answers.first(1)[0].decoded(ActionResult.self) == ActionResult(id: "help-1", ok: true))
        // Answered means written: the watch on disk remembers the id.
        let stored = try h.store.loadWatches().first { $0.walker.rawValue == "alice" }
        #expect(stored?.recentActions.map(\.id) == ["help-1"])
        try await h.act("alice", .needHelp, id: "help-1")
        #expect(try await answers.first(1)[0].decoded(ActionResult.self) == ActionResult(id: "help-1", ok: true))
        #expect(try await escalations.first(1).count == 1)
        #expect(h.bus.published(matching: "safewalk/alice/escalation").count == 1)
        await h.cleanUp()
    }

    @Test func aMalformedCryForHelpEscalatesAndIsAnsweredWithWhatWasWrong() async throws {
        let h = try await ServiceHarness()
        let answers = try await h.bus.subscribe("safewalk/alice/action/result", qos: .atLeastOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        try await h.bus.publish("safewalk/alice/action", payload: Data(#"{"action":"panic","id":"p1","note":5}"#.utf8))
        let escalation = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(escalation.reason == .panic && escalation.level == .red && escalation.note == nil)
        let answer = try await answers.first(1)[0].decoded(ActionResult.self)
        #expect(
            answer
                == ActionResult(
                    id: "p1", ok: true,
                    warnings: ["missing_version", "missing_level", "invalid_note"]))
        await h.cleanUp()
    }

    @Test func refusedDeviceInputIsAnsweredOnTheWalkersOwnTopic() async throws {
        let h = try await ServiceHarness()
        let refusals = try await h.bus.subscribe("safewalk/+/rejected", qos: .atLeastOnce)
        try await h.bus.publish("safewalk/alice/action", payload: Data(#"{"v":1,"action":"start"}"#.utf8))
        try await h.bus.publish("safewalk/alice/action", payload: Data(#"{"v":1,"action":"teleport","id":"t1"}"#.utf8))
        try await h.bus.publish("safewalk/bob/reply", payload: Data(#"{"v":1,"text":"  ","tst":1}"#.utf8))
        let answers = try await refusals.first(3)
        // Actions and replies have their own subscriptions, so only each topic's own order holds.
        func refused(on topic: String) throws -> [InputRefusal] {
            try answers.filter { $0.topic == topic }.map { try $0.decoded(InputRefusal.self) }
        }
        #expect(
            try refused(on: "safewalk/alice/rejected") == [
                InputRefusal(kind: .action, reason: "missing_field"),
                InputRefusal(kind: .action, reason: "invalid_value", id: "t1"),
            ])
        #expect(try refused(on: "safewalk/bob/rejected") == [InputRefusal(kind: .reply, reason: "empty_text")])
        #expect(
            answers.allSatisfy { !String(decoding: $0.payload, as: UTF8.self).contains("teleport") },
            "never the payload")
        await h.cleanUp()
    }

    /// Two walkers in the same incident; one ends it with the cancel PIN, the other with the
    /// duress PIN. What each device can read is the same, byte for byte, and equally quick.
    @Test func theDeviceCannotTellDuressFromCancel() async throws {
        let h = try await ServiceHarness()
        let answers = try await h.bus.subscribe("safewalk/+/action/result", qos: .atLeastOnce)
        let escalations = try await h.bus.subscribe("safewalk/+/escalation", qos: .atLeastOnce)
        let prompts = try await h.bus.subscribe("safewalk/+/prompt", qos: .atLeastOnce)
        for walker in ["alice", "bob"] {
            try await h.send(
                .action(try WalkerID(walker)),
                Action(
                    id: "pins", kind: .setPins(PINChange(cancel: PIN("2468")!, duress: PIN("1357")!))))
            try await h.act(walker, .start, id: "start")
        }
        #expect(try await answers.first(4).allSatisfy { (try? $0.decoded(ActionResult.self).ok) == true })
        h.clock.advance(to: 1_120)  // both go silent: noReply
        #expect(try await escalations.first(2).count == 2)
        let before = h.bus.published.count
        try await h.send(.action(try WalkerID("alice")), Action(id: "end", kind: .imSafe, pin: PIN("2468")))
        try await h.send(.action(try WalkerID("bob")), Action(id: "end", kind: .imSafe, pin: PIN("1357")))
        #expect(try await answers.first(2).count == 2)
        let duress = try await escalations.first(1)[0].decoded(EscalationEvent.self)
        #expect(duress.walker.rawValue == "bob" && duress.duress && duress.level == .red)
        h.clock.advance(to: 1_200)  // a prompt each (due at 1,190), then the next silence each (1,250)
        #expect(try await prompts.first(2).count == 2)
        h.clock.advance(to: 1_300)
        #expect(try await escalations.first(2).allSatisfy { (try? $0.decoded(EscalationEvent.self).duress) == false })
        // What a device reads, topic by topic: each topic's order is the contract's, but prompts
        // and statuses go out on separate lanes (OutboxPublisher), so their interleaving is the
        // scheduler's and carries nothing about how the incident ended.
        func view(_ walker: String) -> [String] {
            let published = h.bus.published.dropFirst(before)
                .filter { $0.topic.hasPrefix("safewalk/\(walker)/") }
            return Set(published.map(\.topic)).sorted().flatMap { topic in published.filter { $0.topic == topic } }
                .filter { !$0.topic.hasSuffix("/escalation") && !$0.topic.hasSuffix("/action") }
                .map {
                    "\($0.topic.dropFirst("safewalk/\(walker)/".count)) \(String(decoding: $0.payload, as: UTF8.self))"
                }
                .map { $0.replacingOccurrences(of: #""id":"[0-9a-f-]{36}""#, with: "ID", options: .regularExpression) }
        }
        try await eventually("both devices' statuses are out") {
            view("alice").last { $0.hasPrefix("status") }?.contains(#""state":"alert""#) == true
                && view("bob").last { $0.hasPrefix("status") }?.contains(#""state":"alert""#) == true
        }
        #expect(view("alice") == view("bob"))
        #expect(view("alice").contains { $0.hasPrefix("prompt") })
        await h.cleanUp()
    }
}
