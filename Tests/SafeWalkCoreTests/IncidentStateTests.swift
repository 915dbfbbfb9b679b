import Foundation
import SafeWalkCore
import Testing

/// The retained `_incidents/{w}` payload: what services and operators read of an incident.
@Suite struct IncidentStateTests {
    let open = IncidentState(
        incident: "3d9b1f0e", walker: walker(), state: .open, reason: .noReply, level: .amber, duress: false,
        openedAt: t0)

    @Test func anOpenIncidentHasNoClosingFields() throws {
        #expect(
            try jsonText(open)
                == #"{"duress":false,"incident":"3d9b1f0e","level":"amber","openedAt":1700000000,"#
                + #""reason":"noReply","state":"open","v":1,"walker":"alice"}"#)
    }

    @Test func closingKeepsTheIncidentAndSaysWhenAndHow() throws {
        let closed = open.closed(at: t0 + 90, by: .imSafe)
        #expect(closed.incident == open.incident && closed.openedAt == open.openedAt)
        let object = try jsonObject(closed)
        #expect(object["state"] as? String == "closed")
        #expect(object["closedAt"] as? Double == t0 + 90)
        #expect(object["closedBy"] as? String == "imSafe")
        #expect(try SafeWalkJSON.decode(IncidentState.self, from: SafeWalkJSON.encode(closed)) == closed)
    }

    @Test func onlyTheThreeEndingActionsClose() {
        #expect(IncidentState.Closer.allCases.map(\.rawValue) == ["imSafe", "stop", "arrived", "desk"])
        #expect(IncidentState.Phase.allCases.map(\.rawValue) == ["open", "closed"])
    }

    @Test func anUnknownStateOrCloserIsRefused() throws {
        let text = try jsonText(open.closed(at: t0 + 1, by: .stop))
        let badState = text.replacingOccurrences(of: #""closed""#, with: #""paused""#)
        #expect(decodeError(IncidentState.self, json(badState)) == .invalidValue("state"))
        let badCloser = text.replacingOccurrences(of: #""stop""#, with: #""timeout""#)
        #expect(decodeError(IncidentState.self, json(badCloser)) == .invalidValue("closedBy"))
    }
}
