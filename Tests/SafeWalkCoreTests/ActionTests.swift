import Foundation
import SafeWalkCore
import Testing

@Suite struct ActionTests {
    @Test func startWalkHasTheDesignWireForm() throws {
        let action = Action(id: "a1", kind: .startWalk(destination: "Library", minutes: 12))
        #expect(try jsonText(action) == #"{"action":"startWalk","destination":"Library","id":"a1","minutes":12,"v":1}"#)
    }

    @Test(arguments: [
        Action.Kind.start, .stop, .imSafe, .needHelp, .panic(.amber), .panic(.red),
        .startWalk(destination: "Dorm 🏠", minutes: 0.5), .arrived,
    ])
    func everyActionRoundTrips(kind: Action.Kind) throws {
        let action = Action(id: "x-1", kind: kind)
        #expect(try SafeWalkJSON.decode(Action.self, from: SafeWalkJSON.encode(action)) == action)
        #expect(try jsonObject(action)["action"] as? String == kind.name)
    }

    @Test func panicWithAmberStaysAmber() throws {
        let action = try SafeWalkJSON.decode(
            Action.self, from: json(#"{"v":1,"action":"panic","id":"p","level":"amber"}"#))
        #expect(action.kind == .panic(.amber))
    }

    @Test(arguments: [
        #"{"v":1,"action":"panic","id":"p"}"#, #"{"v":1,"action":"panic","id":"p","level":"purple"}"#,
        #"{"v":1,"action":"panic","id":"p","level":2}"#, #"{"v":1,"action":"panic","id":"p","level":null}"#,
    ])
    func panicWithAMissingOrUnknownLevelIsReadAsRed(text: String) throws {
        #expect(try SafeWalkJSON.decode(Action.self, from: json(text)).kind == .panic(.red))
    }

    @Test func unknownActionsAreRefused() {
        #expect(decodeError(Action.self, json(#"{"v":1,"action":"dance","id":"a"}"#)) == .invalidValue("action"))
    }

    @Test func emptyIdsAreRefused() {
        #expect(decodeError(Action.self, json(#"{"v":1,"action":"stop","id":""}"#)) == .invalidValue("id"))
    }

    @Test func startWalkNeedsDestinationAndMinutes() {
        #expect(
            decodeError(Action.self, json(#"{"v":1,"action":"startWalk","id":"a","destination":"L"}"#))
                == .missingField("minutes"))
        #expect(
            decodeError(Action.self, json(#"{"v":1,"action":"startWalk","id":"a","minutes":3}"#))
                == .missingField("destination"))
        #expect(
            decodeError(Action.self, json(#"{"v":1,"action":"startWalk","id":"a","destination":"L","minutes":"3"}"#))
                == .wrongType("minutes"))
    }

    @Test(arguments: [0.0, -5.0, Action.maxWalkMinutes + 1, 1e308])
    func startWalkNeedsPositiveMinutesUpToADay(minutes: Double) {
        let text = #"{"v":1,"action":"startWalk","id":"a","destination":"L","minutes":\#(minutes)}"#
        #expect(decodeError(Action.self, json(text)) == .invalidValue("minutes"))
    }

    @Test func theLongestWalkHasAnETAThatEncodes() throws {
        let text = #"{"v":1,"action":"startWalk","id":"a","destination":"L","minutes":1440}"#
        let action = try SafeWalkJSON.decode(Action.self, from: Data(text.utf8))
        let walk = try #require(action.walk(startingAt: t0))
        #expect(walk.eta == t0 + 86_400)
        #expect(throws: Never.self) { try SafeWalkJSON.encode(walk) }
    }

    @Test func aWalkEndsMinutesAfterItStarts() {
        let action = Action(id: "a", kind: .startWalk(destination: "Library", minutes: 12))
        #expect(action.walk(startingAt: t0) == WalkPlan(destination: "Library", eta: t0 + 720))
        #expect(Action(id: "b", kind: .start).walk(startingAt: t0) == nil)
    }
}
