import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 15 across the five real executables on the secured broker: every malformed cry for
/// help escalates, every other malformed input is refused and answered to the device.
@Suite("End to end: no cry for help is lost", .serialized)
struct HelpIntakeStoryTests {
    /// (topic channel, raw payload): each asks for help in its own broken way.
    static let malformedCries: [(Topic.Kind, String)] = [
        (.action, #"{"action":"needHelp","id":"c1"}"#),  // no v
        (.action, #"{"v":2,"action":"needHelp","id":"c2"}"#),  // another v
        (.action, #"{"v":1,"action":"needHelp"}"#),  // no id
        (.action, #"{"v":1,"action":"needHelp","id":"c4","note":42}"#),  // a wrongly typed note
        (.action, #"{"v":1,"action":"panic","id":"c5"}"#),  // no level
        (.action, #"{"v":1,"action":"panic","id":"c6","level":"crimson"}"#),  // unknown level
        (.action, "needHelp"),  // the bare word
        (.action, "panic\n"),  // the bare word from a shell
        (.action, #"{"v":1,"action":"needHelp","id":"c9""#),  // cut short
        (.reply, #"{"v":1,"text":"I need help 🚨","quickReply":"needHelp","tst":1700000000}"#),  // chip id as a string
        (.reply, #"{"text":"I need help 🚨","tst":1700000000}"#),  // no v
        (.reply, #"{"v":1,"text":"I need help 🚨"}"#),  // no tst
        (.reply, "I need help 🚨"),  // bare text
        (.reply, #"{"v":1,"quickReply":"needHelp"}"#),  // only the chip id
    ]

    @Test func everyMalformedCryForHelpEscalatesOnceEach() async throws {
        let world = try await StoryWorld.start()
        let ivan = try await Walker("ivan", on: world.stack)
        let escalations = try await world.watch("ivan", .escalation)
        let answers = try await ivan.phone.subscribe(ivan.topic(.actionResult), qos: .atLeastOnce)
        for (index, (channel, payload)) in Self.malformedCries.enumerated() {
            try await ivan.phone.publish(ivan.topic(channel), payload: Data(payload.utf8))
            let escalation = try #require(
                try await escalations.decoded(EscalationEvent.self).first,
                "cry \(index): \(payload)\n\(world.stack.logs)")
            #expect([.needHelp, .panic].contains(escalation.reason), "\(payload)")
            #expect(escalation.level == .red, "\(payload)")
            // End the incident (a well-formed imSafe, answered) so the next cry is a new one.
            let id = "safe-\(index)"
            try await ivan.phone.publish(
                ivan.topic(.action), payload: SafeWalkJSON.encode(Action(id: id, kind: .imSafe)))
            _ = try await answers.decoded(ActionResult.self, where: { $0.id == id })
        }
        #expect(Self.malformedCries.count >= 12)
        #expect(await escalations.drained().isEmpty, "one escalation per cry, no more")
        await ivan.leave(); await world.stop()
    }

    /// (channel, payload, the refusal the device must be told): malformed, and not help.
    static let malformedOthers: [(Topic.Kind, String, String)] = [
        (.action, #"{"v":1,"action":"start"}"#, "missing_field"),
        (.action, #"{"v":2,"action":"start","id":"x1"}"#, "unsupported_version"),
        (.action, #"{"v":1,"action":"teleport","id":"x2"}"#, "invalid_value"),
        (.action, #"{"v":1,"action":"imSafe","id":"x3","pin":"12"}"#, "invalid_value"),
        (.reply, #"{"v":1,"text":"   ","tst":1700000000}"#, "empty_text"),
        (.reply, #"{"v":1,"text":"I'm okay 👍","quickReply":"okay","tst":1700000000}"#, "wrong_type"),
        (.fix, #"{"v":1,"lat":"north","lon":-97.7,"tst":1700000000,"acc":5}"#, "wrong_type"),
        (.contactsAdd, #"{"v":1,"name":"Mum"}"#, "missing_field"),
    ]

    @Test func malformedInputThatIsNotHelpIsAnsweredAndNeverEscalates() async throws {
        let world = try await StoryWorld.start()
        let judy = try await Walker("judy", on: world.stack)
        let escalations = try await world.watch("judy", .escalation)
        let refusals = try await judy.phone.subscribe(judy.topic(.inputRejected), qos: .atLeastOnce)
        for (channel, payload, _) in Self.malformedOthers {
            try await judy.phone.publish(judy.topic(channel), payload: Data(payload.utf8))
        }
        // Replies are read by two services (watchdog and chat): each answers what it refused.
        let expected = Self.malformedOthers.map { ($0.0, $0.2) }
        let answered = try await refusals.decoded(InputRefusal.self, count: expected.count + 2)
        for (kind, reason) in expected {
            #expect(answered.contains { $0.kind == kind && $0.reason == reason }, "\(kind) \(reason): \(answered)")
        }
        #expect(answered.filter { $0.kind == .reply }.count == 4, "both readers of reply answer: \(answered)")
        #expect(answered.first { $0.reason == "unsupported_version" }?.id == "x1")
        // A real cry afterwards is the first and only escalation: none of the above escalated.
        try await judy.send(.needHelp)
        let first = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(first.reason == .needHelp)
        #expect(await escalations.drained().isEmpty)
        await judy.leave(); await world.stop()
    }
}
