import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The life of an incident as services see it, across the five real executables on the secured
/// broker: `_incidents/{w}` opens with the first escalation's id, which the red escalation that
/// follows carries too, and closes on `imSafe`; the walker's phone never sees any of it.
@Suite("End to end: incidents", .serialized)
struct IncidentStoryTests {
    @Test func anOperatorSeesTheIncidentOpenRaisedAndClosedAndThePhoneSeesNoneOfIt() async throws {
        let world = try await StoryWorld.start()
        let ivan = try await Walker("ivan", on: world.stack)
        let incidents = try await world.watch("ivan", .incident)
        let escalations = try await world.watch("ivan", .escalation)
        // Everything the phone can ask for: its own topics, and the incident topic by name.
        let phoneView = try await ivan.phone.subscribe("safewalk/ivan/#", qos: .atLeastOnce)
        let phoneSpy = try await ivan.phone.subscribe("safewalk/_incidents/#", qos: .atLeastOnce)
        let answers = try await ivan.phone.subscribe(ivan.topic(.actionResult), qos: .atLeastOnce)
        try await ivan.send(.start)

        // Silence: noReply (amber) opens the incident under its escalation's id.
        let amber = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(amber.reason == .noReply && amber.level == .amber && amber.incident == amber.id)
        let opened = try #require(try await incidents.decoded(IncidentState.self).first)
        #expect(opened.incident == amber.id && opened.state == .open && opened.level == .amber && !opened.duress)

        // A cry for help raises it: the red escalation carries the first one's id.
        try await ivan.send(.needHelp)
        let red = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(red.level == .red && red.id != amber.id && red.incident == amber.id)
        let raised = try #require(try await incidents.decoded(IncidentState.self).first)
        #expect(raised.incident == amber.id && raised.state == .open && raised.level == .red)

        let safe = Action(id: "safe", kind: .imSafe)
        try await ivan.phone.publish(ivan.topic(.action), payload: SafeWalkJSON.encode(safe))
        #expect(try await answers.decoded(ActionResult.self, where: { $0.id == "safe" }).first?.ok == true)
        let closed = try #require(try await incidents.decoded(IncidentState.self).first)
        #expect(closed.incident == amber.id && closed.state == .closed && closed.closedBy == .imSafe)
        #expect(closed.openedAt == opened.openedAt && (closed.closedAt ?? 0) >= raised.openedAt)

        // The check-in that resumes after imSafe reaches the phone after everything above was
        // published: by then any leak would have arrived.
        let seen = try await withTimeout(20, "the check-in after imSafe") {
            var seen: [MQTTMessage] = []
            var (alerted, safeAgain) = (false, false)
            for await message in phoneView {
                seen.append(message)
                if message.topic.hasSuffix("/status"),
                    let status = try? SafeWalkJSON.decode(WatchStatus.self, from: message.payload, maxBytes: 1 << 16)
                {
                    if status.state == .alert { alerted = true } else if alerted { safeAgain = true }
                }
                if safeAgain, message.topic.hasSuffix("/chat") { break }
            }
            return seen
        }
        let leaked =
            await phoneSpy.drained()
            + seen.filter { message in
                message.topic.contains("_incidents")
                    || String(decoding: message.payload, as: UTF8.self).contains(#""incident":"#)
            }
        #expect(leaked.isEmpty, "the phone saw: \(leaked.map(\.topic))")
        #expect(!seen.contains { $0.topic.hasSuffix("/escalation") }, "the phone read an escalation")
        await ivan.leave()
        await world.stop()
    }

    /// Under duress the phone gets a cancel's answer while the services' incident stays open:
    /// the same id, red, `duress`, until the cancel PIN closes it.
    @Test func aDuressPINLeavesTheSameIncidentOpenForServices() async throws {
        let world = try await StoryWorld.start(["SAFEWALK_NO_REPLY_AFTER": "60", "SAFEWALK_NO_MOVEMENT_AFTER": "60"])
        let judy = try await Walker("judy", on: world.stack)
        let incidents = try await world.watch("judy", .incident)
        let escalations = try await world.watch("judy", .escalation)
        let answers = try await judy.phone.subscribe(judy.topic(.actionResult), qos: .atLeastOnce)
        func perform(_ action: Action) async throws -> ActionResult {
            try await judy.phone.publish(judy.topic(.action), payload: SafeWalkJSON.encode(action))
            return try #require(try await answers.decoded(ActionResult.self, where: { $0.id == action.id }).first)
        }
        let pins = Action(id: "pins", kind: .setPins(PINChange(cancel: PIN("2468")!, duress: PIN("1357")!)))
        #expect(try await perform(pins).ok)
        #expect(try await perform(Action(id: "help", kind: .needHelp)).ok)
        let help = try #require(try await escalations.decoded(EscalationEvent.self).first)
        let opened = try #require(try await incidents.decoded(IncidentState.self).first)
        #expect(opened.incident == help.id && !opened.duress)

        #expect(try await perform(Action(id: "coerced", kind: .imSafe, pin: PIN("1357"))).ok)
        let duress = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(duress.duress && duress.incident == help.id)
        let behind = try #require(try await incidents.decoded(IncidentState.self).first)
        #expect(behind.incident == help.id && behind.state == .open && behind.level == .red && behind.duress)

        #expect(try await perform(Action(id: "really", kind: .imSafe, pin: PIN("2468"))).ok)
        let closed = try #require(try await incidents.decoded(IncidentState.self).first)
        #expect(closed.incident == help.id && closed.state == .closed && closed.duress && closed.closedBy == .imSafe)
        await judy.leave()
        await world.stop()
    }
}
