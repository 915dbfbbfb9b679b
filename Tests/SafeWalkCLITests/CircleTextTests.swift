import Foundation
import SafeWalkCore
import Testing

@testable import SafeWalkCLI

@Suite struct CircleTextTests {
    let bob = try! WalkerID("bob")
    let carol = try! WalkerID("carol")
    let text = CircleText(timeZone: TimeZone(identifier: "UTC")!)
    let midnight: EpochSeconds = 1_759_968_000  // 2025-10-09 00:00:00 UTC
    var at0214: EpochSeconds { midnight + 2 * 3600 + 14 * 60 }

    func event(_ type: InboxEvent.Kind, at: EpochSeconds? = nil, text: String = "sentence") -> InboxEvent {
        InboxEvent(id: "e-1", type: type, from: bob, at: at ?? at0214, text: text)
    }

    @Test func anAlertNamesWhoWhyWhenAndWhere() {
        var alert = event(.alert)
        alert.reason = .panic
        alert.level = .red
        alert.position = SharedPosition(lat: 30.2849, lon: -97.7341, acc: 8, tst: at0214 - 5, batt: 61)
        #expect(
            text.event(alert) == "ALERT bob needs help (panic, red) at 02:14 — 30.28490, -97.73410 ±8 m, battery 61%")
    }

    @Test func anAlertWithoutAPositionSaysSoAndAnOldPositionShowsItsTime() {
        var alert = event(.alert)
        alert.reason = .noReply
        alert.level = .amber
        alert.note = "Walking to my car"
        #expect(
            text.event(alert)
                == "ALERT bob needs help (noReply, amber) at 02:14 — no known position — \"Walking to my car\"")
        alert.position = SharedPosition(lat: 30.2849, lon: -97.7341, acc: nil, tst: at0214 - 600)
        #expect(text.event(alert).contains("— 30.28490, -97.73410 at 02:04 —"))
    }

    @Test func checkInsAndHomeSafeReadAsSentences() {
        #expect(text.event(event(.checkedIn, at: midnight + 2 * 3600 + 20 * 60)) == "bob checked in safe at 02:20")
        var home = event(.homeSafe, at: midnight - 50 * 60)
        home.until = midnight + 11 * 3600 + 10 * 60
        #expect(text.event(home) == "bob is home safe (since 23:10, until 11:10)")
    }

    @Test func everyInboxEventHasALineNamingItsSender() {
        for kind in InboxEvent.Kind.allCases where kind != .ack && kind != .circleNotAlerted {
            #expect(text.event(event(kind)).contains("bob"), "\(kind)")
        }
        #expect(text.event(event(.ack, text: "carol is on bob's alert.")) == "carol is on bob's alert. (at 02:14)")
        var lonely = event(.circleNotAlerted)
        lonely.code = "noSOSContacts"
        #expect(text.event(lonely).hasPrefix("your alert reached nobody in your circle (noSOSContacts) at 02:14"))
        var missed = event(.lastKnown)
        missed.status = .checking
        missed.position = SharedPosition(lat: 30.2849, lon: -97.7341, acc: 5, tst: at0214 - 30)
        #expect(
            text.event(missed)
                == "bob did not answer your check-in request: last known position 30.28490, -97.73410 ±5 m at 02:13, "
                + "status checking")
    }

    @Test func timesAreInTheGivenTimeZone() {
        let austin = CircleText(timeZone: TimeZone(secondsFromGMT: -6 * 3600)!)
        #expect(austin.event(event(.checkedIn)) == "bob checked in safe at 20:14")
        #expect(austin.day(midnight) == "2025-10-08")
        #expect(text.day(midnight) == "2025-10-09")
    }

    @Test func controlCharactersFromTheWireNeverReachTheTerminal() {
        var alert = event(.alert)
        alert.note = "help\u{1B}[2J\u{202E}me\u{7}"
        let line = text.event(alert)
        #expect(line.hasSuffix("\"help?[2J?me?\""))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        let refusal = CircleResult(
            id: "c1", op: "follow", ok: false, error: CircleError(.unknownUser, message: "no\u{1B}]0;pwned\u{7}"))
        #expect(CircleText.refusal(refusal) == "error unknownUser: no?]0;pwned?")
    }

    @Test func answersSayWhatHappenedOrWhyNot() {
        let follow = CircleCommand(id: "c1", op: .follow, user: "bob")
        #expect(text.answer(to: follow, CircleResult(id: "c1", op: "follow", ok: true)) == "follow request sent to bob")
        let refused = CircleResult(
            id: "c1", op: "follow", ok: false,
            error: CircleError(.unknownUser, message: "Nobody called 'bobb' uses SafeWalk."))
        #expect(
            text.answer(to: follow, refused) == "error unknownUser: Nobody called 'bobb' uses SafeWalk.")
        #expect(
            text.answer(to: follow, CircleResult(id: "c1", op: "follow", ok: false))
                == "error: refused without a reason")
        let askAll = CircleCommand(id: "c2", op: .checkInRequest)
        #expect(
            text.answer(to: askAll, CircleResult(id: "c2", op: "checkInRequest", ok: true, count: 3))
                == "asked 3 people to check in")
        let askBob = CircleCommand(id: "c3", op: .checkInRequest, user: "bob")
        #expect(
            text.answer(to: askBob, CircleResult(id: "c3", op: "checkInRequest", ok: true, count: 1))
                == "asked bob to check in")
        let inbox = CircleCommand(id: "c4", op: .inbox)
        #expect(
            text.answer(to: inbox, CircleResult(id: "c4", op: "inbox", ok: true, count: 0)) == "your inbox is empty")
        #expect(
            text.answer(to: inbox, CircleResult(id: "c4", op: "inbox", ok: true, count: 1)) == "1 event in your inbox")
        for op in CircleCommand.Operation.allCases {
            let line = text.answer(
                to: CircleCommand(id: "x", op: op, user: "bob", on: true),
                CircleResult(id: "x", op: op.rawValue, ok: true))
            #expect(!line.isEmpty && !line.hasPrefix("error"), "\(op)")
        }
    }

    @Test func resultsForWatchNameTheOperation() {
        #expect(CircleText.result(CircleResult(id: "c", op: "inbox", ok: true, count: 3)) == "inbox ok, 3 events")
        #expect(
            CircleText.result(CircleResult(id: "c", op: "checkInRequest", ok: true, count: 1))
                == "checkInRequest ok, 1 user")
        #expect(CircleText.result(CircleResult(id: "c", op: "follow", ok: true)) == "follow ok")
        #expect(
            CircleText.result(
                CircleResult(
                    id: "c", op: "sos", ok: false, error: CircleError(.notFollowing, message: "You do not follow bob."))
            )
                == "sos error notFollowing: You do not follow bob.")
        #expect(
            CircleText.result(
                CircleResult(id: nil, op: nil, ok: false, error: CircleError(.invalidCommand, message: "Not JSON.")))
                == "command error invalidCommand: Not JSON.")
    }

    @Test func aSharedViewShowsTheIncidentWhereAndWhoIsOnIt() {
        var view = SharedView(
            user: bob, incident: .init(id: "i-1", level: .red, reason: .panic, duress: false, openedAt: at0214),
            position: SharedPosition(lat: 30.2849, lon: -97.7341, acc: 8, tst: at0214 + 120, batt: 61),
            updatedAt: at0214 + 120)
        #expect(
            text.shared(view, of: bob)
                == "bob needs help (panic, red) since 02:14 — 30.28490, -97.73410 ±8 m at 02:16, battery 61%")
        view.incident.acknowledgedBy = "carol"
        view.incident.duress = true
        view.position = nil
        #expect(
            text.shared(view, of: bob)
                == "bob needs help (panic, red) since 02:14 — no position yet · carol is on it"
                + " · DURESS: their phone shows a cancel, do not call or text it")
        #expect(text.shared(nil, of: bob) == "bob is no longer shared with you")
    }

    func circle() throws -> CircleView {
        CircleView(
            user: try WalkerID("alice"),
            following: [
                .init(
                    user: bob, sos: true, since: midnight - 86_400, checkedInAt: at0214,
                    homeSafe: HomeSafe(at: midnight - 3000, until: midnight + 40_200)),
                .init(user: carol, sos: false, since: midnight),
            ],
            followers: [.init(user: bob, sosOfTheirs: true, since: midnight)],
            requestsIn: [.init(user: try WalkerID("dave"), at: at0214)],
            checkInRequests: [.init(user: carol, at: at0214 + 60)],
            homeSafe: HomeSafe(at: midnight, until: midnight + 3600))
    }

    @Test func theCircleInOneCompactLine() throws {
        #expect(
            text.compact(try circle(), now: at0214)
                == "following bob (SOS, checked in 02:14, home safe since 23:10 until 11:10), carol"
                + " · followers bob (their SOS) · asking to follow you: dave · asking you to check in: carol")
        #expect(
            text.compact(CircleView(user: bob, revealOnMissedCheckIn: true), now: at0214)
                == "following nobody · no followers · reveal on missed check-in")
    }

    @Test func theWholeCircleOneFactALineWithoutExpiredHomeSafe() throws {
        #expect(
            text.lines(try circle(), now: at0214) == [
                "circle of alice",
                "following (2):",
                "  bob    SOS · since 2025-10-08 · checked in 02:14 · home safe since 23:10 until 11:10",
                "  carol  since 2025-10-09",
                "followers (1):",
                "  bob    you are their SOS contact · since 2025-10-09",
                "asking to follow you: dave (02:14)",
                "asking you to check in: carol (02:15)",
                "reveal on missed check-in: off",
            ])
        #expect(text.lines(try circle(), now: midnight + 1800).contains("you are home safe (since 00:00, until 01:00)"))
        #expect(
            text.lines(CircleView(user: bob), now: at0214) == [
                "circle of bob", "following: nobody", "followers: nobody", "reveal on missed check-in: off",
            ])
    }

    @Test func anInboxReplayKeepsEachEventOnceUntilTheCount() {
        var replay = InboxReplay(expected: 2)
        #expect(!replay.isComplete)
        replay.add(event(.checkedIn))
        replay.add(event(.checkedIn))
        #expect(!replay.isComplete)
        var second = event(.homeSafe)
        second.id = "e-2"
        replay.add(second)
        #expect(replay.isComplete)
        #expect(replay.events.map(\.id) == ["e-1", "e-2"])
        #expect(InboxReplay(expected: 0).isComplete)
    }
}
