import Foundation
import SafeWalkCore
import Testing

@Suite struct EscalationEventTests {
    let event = EscalationEvent(
        id: "6F9619FF-8B86-D011-B42D-00C04FC964FF", walker: walker(), reason: .walkOverdue, level: .amber,
        at: t0, lastFix: FixSummary(lat: 30.28, lon: -97.73, acc: 12, tst: t0 - 30), walk: sampleWalk)

    @Test func hasExactlyTheDesignFields() throws {
        let object = try jsonObject(event)
        #expect(Set(object.keys) == ["v", "id", "incident", "walker", "reason", "level", "at", "lastFix", "walk"])
        #expect(object["walker"] as? String == "alice")
        #expect(object["reason"] as? String == "walkOverdue")
        #expect(object["level"] as? String == "amber")
        let lastFix = try #require(object["lastFix"] as? [String: Any])
        #expect(Set(lastFix.keys) == ["lat", "lon", "acc", "tst"])
        let walk = try #require(object["walk"] as? [String: Any])
        #expect(Set(walk.keys) == ["destination", "eta"])
    }

    @Test func theEscalationThatOpensAnIncidentNamesItselfAndARaiseNamesTheFirst() throws {
        #expect(event.incident == event.id)
        #expect(try jsonObject(event)["incident"] as? String == event.id)
        let red = EscalationEvent(
            id: "red-2", walker: walker(), reason: .needHelp, level: .red, at: t0 + 60, lastFix: nil, walk: nil,
            incident: event.id)
        #expect(red.incident == event.id)
        #expect(try SafeWalkJSON.decode(EscalationEvent.self, from: SafeWalkJSON.encode(red)) == red)
    }

    /// Older producers, and escalations a watchdog wrote to its outbox before incidents had ids,
    /// carry no `incident`: each is then its own incident.
    @Test func anEventWithoutAnIncidentIsItsOwnIncident() throws {
        var object = try jsonObject(event)
        object["incident"] = nil
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(try SafeWalkJSON.decode(EscalationEvent.self, from: data).incident == event.id)
    }

    @Test func absentFixAndWalkAreWrittenAsNull() throws {
        var bare = event
        bare.lastFix = nil
        bare.walk = nil
        let text = try jsonText(bare)
        #expect(text.contains(#""lastFix":null"#))
        #expect(text.contains(#""walk":null"#))
        #expect(try SafeWalkJSON.decode(EscalationEvent.self, from: json(text)) == bare)
    }

    @Test func unknownAccuracyIsWrittenAsNull() throws {
        let summary = FixSummary(lat: 1, lon: 2, acc: nil, tst: 3)
        #expect(try jsonText(summary) == #"{"acc":null,"lat":1,"lon":2,"tst":3}"#)
    }

    @Test func anInvalidWalkerIsRefused() throws {
        let text = try jsonText(event).replacingOccurrences(of: #""alice""#, with: #""a/b""#)
        #expect(decodeError(EscalationEvent.self, json(text)) == .invalidValue("walker"))
    }

    @Test func unknownReasonsAndLevelsAreRefused() throws {
        let text = try jsonText(event)
        let badReason = text.replacingOccurrences(of: "walkOverdue", with: "bored")
        #expect(decodeError(EscalationEvent.self, json(badReason)) == .invalidValue("reason"))
        let badLevel = text.replacingOccurrences(of: #""amber""#, with: #""green""#)
        #expect(decodeError(EscalationEvent.self, json(badLevel)) == .invalidValue("level"))
    }

    @Test func everyReasonAndLevelRoundTrips() throws {
        for reason in EscalationReason.allCases {
            for level in EscalationLevel.allCases {
                var copy = event
                copy.reason = reason
                copy.level = level
                #expect(try SafeWalkJSON.decode(EscalationEvent.self, from: SafeWalkJSON.encode(copy)) == copy)
            }
        }
        #expect(
            EscalationReason.allCases.map(\.rawValue) == [
                "noReply", "noMovement", "walkOverdue", "needHelp", "panic", "trackerOffline", "wrongPin",
            ])
    }

    @Test func needHelpAndPanicDefaultToRedTimersToAmber() {
        #expect(EscalationReason.needHelp.defaultLevel == .red)
        #expect(EscalationReason.panic.defaultLevel == .red)
        for reason in [EscalationReason.noReply, .noMovement, .walkOverdue, .trackerOffline] {
            #expect(reason.defaultLevel == .amber)
        }
    }
}
