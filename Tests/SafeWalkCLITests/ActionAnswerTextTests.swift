import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Testing

@testable import SafeWalkCLI

/// How `simulate` and `watch` show actions, their answers and refusals, and that no PIN ever
/// reaches a terminal.
@Suite struct ActionAnswerTextTests {
    let alice = try! WalkerID("alice")
    let plain = Style(enabled: false)
    let noon: EpochSeconds = 1_700_000_000  // 22:13:20 UTC
    let utc = TimeZone(identifier: "UTC")!
    let watch = WatchFormatter(style: Style(enabled: false), timeZone: TimeZone(identifier: "UTC")!)

    func line(_ event: SimulationEvent) -> String? {
        SimulationText.line(event, walker: "alice", style: plain, now: noon, timeZone: utc)
    }

    @Test func simulatePrintsEachAnswerOnceAndSaysWhenItRepeats() {
        let stop = Action(id: "4f1c2a9e-0000-4000-8000-000000000000", kind: .stop, pin: PIN("9876"))
        #expect(line(.actionSent(stop)) == "22:13:20 alice  action stop with PIN")
        #expect(
            line(.actionRepeated(stop, attempt: 2)) == "22:13:20 alice  no answer yet: stop again, same id (attempt 2)")
        #expect(
            line(.actionAnswered(stop, .result(ActionResult(id: stop.id, ok: true))))
                == "22:13:20 alice  answer to stop: ok")
        #expect(
            line(.actionAnswered(stop, .result(ActionResult(id: stop.id, ok: false, error: .wrongPIN))))
                == "22:13:20 alice  answer to stop: error wrong_pin: That PIN is not right. Your alert is still on.")
        #expect(
            line(.actionAnswered(stop, .refused(InputRefusal(kind: .action, reason: "malformed", id: stop.id))))
                == "22:13:20 alice  answer to stop: action refused: malformed (id 4f1c2a9e…)")
        #expect(
            line(.actionUnanswered(stop, attempts: 30))
                == "22:13:20 alice  no answer to stop after 30 tries; is the watchdog running?")
        #expect(
            line(.refused(InputRefusal(kind: .reply, reason: "empty_text")))
                == "22:13:20 alice  rejected: reply refused: empty_text")
        #expect(
            line(.actionSent(Action(id: "h", kind: .hold(.red), note: "Walking to my car")))
                == "22:13:20 alice  action hold (red) \"Walking to my car\"")
    }

    @Test func heartbeatsAnsweredOkAreNotWorthALine() {
        let beat = Action(id: "h1", kind: .holding)
        #expect(line(.actionAnswered(beat, .result(ActionResult(id: "h1", ok: true)))) == nil)
        #expect(
            line(.actionAnswered(beat, .result(ActionResult(id: "h1", ok: false, error: .notHolding))))?
                .contains("error not_holding") == true)
    }

    @Test func watchShowsAnswersAndRefusals() throws {
        let result = MQTTMessage(
            topic: Topic.actionResult(alice).name(),
            payload: try SafeWalkJSON.encode(
                ActionResult(id: "a4", ok: false, error: .pinRequired)))
        let (walker, event) = try #require(WatchEvent.decode(result, prefix: "safewalk"))
        #expect(walker == alice)
        #expect(
            watch.line(event, walker: walker, now: noon)
                == "22:13:20 alice  ANSWER     error pin_required: Enter your cancel PIN to end the alert. id a4")
        let warned = ActionResult(id: nil, ok: true, warnings: ["missing_version"])
        #expect(
            watch.line(.actionResult(warned), walker: alice, now: noon)
                == "22:13:20 alice  ANSWER     ok (warnings: missing_version)")

        let refusal = MQTTMessage(
            topic: Topic.inputRejected(alice).name(),
            payload: Data(#"{"v":1,"kind":"reply","reason":"empty_text","id":"r1"}"#.utf8))
        let (_, refused) = try #require(WatchEvent.decode(refusal, prefix: "safewalk"))
        #expect(
            watch.line(refused, walker: alice, now: noon)
                == "22:13:20 alice  REFUSED    reply refused: empty_text (id r1)")
        let broken = MQTTMessage(topic: Topic.actionResult(alice).name(), payload: Data("ok".utf8))
        #expect(
            WatchEvent.decode(broken, prefix: "safewalk").map { if case .unreadable = $0.event { true } else { false } }
                == true)
    }

    @Test func operatorsSeeADuressAndTheNote() throws {
        let escalation = EscalationEvent(
            id: "e2", walker: alice, reason: .needHelp, level: .red, at: noon, lastFix: nil,
            walk: nil, note: "Someone is following me", duress: true)
        #expect(
            watch.line(.escalation(escalation), walker: alice, now: noon)?
                .hasSuffix("ESCALATE   needHelp (red), DURESS, no known position \"Someone is following me\" id e2")
                == true)
        #expect(line(.holdDropped)?.contains("hold heartbeats stopped without a release") == true)
    }

    /// `watch` shows `{w}/action` wherever the login may read it (the local stack's anonymous
    /// broker), PINs included on the wire: the lines say a PIN was given, never which.
    @Test func watchNeverShowsAPIN() throws {
        let payloads = [
            #"{"v":1,"action":"imSafe","id":"a4","pin":"4321"}"#,
            #"{"v":1,"action":"stop","id":"a5","pin":"98765"}"#,
            #"{"v":1,"action":"setPins","id":"a8","cancelPin":"2468","duressPin":"13579","pin":"1122"}"#,
            #"{"v":1,"action":"clearPins","id":"a9","pin":"1122"}"#,
        ]
        for payload in payloads {
            let message = MQTTMessage(topic: Topic.action(alice).name(), payload: Data(payload.utf8))
            let (walker, event) = try #require(WatchEvent.decode(message, prefix: "safewalk"))
            let shown = try #require(watch.line(event, walker: walker, now: noon))
            #expect(shown.contains("with PIN"), "\(shown)")
            for secret in ["4321", "98765", "2468", "13579", "1122"] { #expect(!shown.contains(secret), "\(shown)") }
            let simulated = try #require(line(.actionSent(try SafeWalkJSON.decode(Action.self, from: message.payload))))
            for secret in ["4321", "98765", "2468", "13579", "1122"] {
                #expect(!simulated.contains(secret), "\(simulated)")
            }
        }
    }
}
