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
            await phoneSpy.drain()
            + seen.filter { message in
                message.topic.contains("_incidents")
                    || String(decoding: message.payload, as: UTF8.self).contains(#""incident":"#)
            }
        #expect(leaked.isEmpty, "the phone saw: \(leaked.map(\.topic))")
        #expect(!seen.contains { $0.topic.hasSuffix("/escalation") }, "the phone read an escalation")
        await ivan.leave()
        await world.stop()
    }
}
