import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Testing

@testable import SafeWalkCLI

@Suite struct WatchFormatterTests {
    let alice = try! WalkerID("alice")
    let plain = WatchFormatter(style: Style(enabled: false), timeZone: TimeZone(identifier: "UTC")!)
    let noon: EpochSeconds = 1_700_000_000  // 22:13:20 UTC

    @Test func safeStatusShowsTheNextCheckInCountdown() {
        let status = WatchStatus(state: .safe, watching: true, since: noon - 10, nextCheckInAt: noon + 42.3)
        #expect(
            plain.line(.status(status), walker: alice, now: noon)
                == "22:13:20 alice  STATUS     SAFE · next check-in in 00:43")
    }

    @Test func checkingStatusCountsDownToTheReplyDeadline() {
        let status = WatchStatus(state: .checking, watching: true, since: noon)
        #expect(
            plain.line(.status(status), walker: alice, replyBy: noon + 102, now: noon)?
                .hasSuffix("CHECKING · reply within 01:42") == true)
        #expect(
            plain.line(.prompt(CheckInPrompt(id: "p", at: noon, replyBy: noon + 120)), walker: alice, now: noon)?
                .hasSuffix("PROMPT     check-in due, reply within 02:00") == true)
    }

    @Test func aDevicePresenceSaysWhichWord() {
        for (presence, text) in [
            (Presence.online, "online"), (.offline, "offline"), (.background, "app in the background"),
        ] {
            #expect(plain.line(.presence(presence), walker: alice, now: noon)?.hasSuffix("DEVICE     \(text)") == true)
        }
    }

    @Test func alertStatusNamesTheReasonAndWalk() {
        let status = WatchStatus(
            state: .alert, watching: true, since: noon - 75, reason: .noReply, level: .amber,
            walk: WalkPlan(destination: "Library", eta: noon + 600))
        #expect(
            WatchFormatter.summary(status, replyBy: nil, now: noon, style: Style(enabled: false))
                == "ALERT noReply (amber) · for 01:15 · walk to Library, ETA in 10:00")
    }

    @Test func alertsShowTheirActionKindsButNotTheNumbers() throws {
        let alert = DeviceAlert(
            title: "Alert sent", body: "Your contacts were told",
            actions: [
                AlertAction(title: "Call UT Police", url: "tel:5124714441"),
                AlertAction(title: "Text contacts", url: "sms:+15125550100,+15125550101?body=help"),
            ])
        let line = try #require(plain.line(.alert(alert), walker: alice, now: noon))
        #expect(line.contains("[Call UT Police → tel:] [Text contacts → sms:]"))
        #expect(!line.contains("5125550100"))
    }

    @Test func deliveriesMaskTheRecipient() throws {
        let receipt = DeliveryReceipt(
            escalationId: "e1", channel: "sms", recipient: "+15125550100", status: .failed,
            reason: "gateway 503", attempts: 3, at: noon)
        let line = try #require(plain.line(.delivery(receipt), walker: alice, now: noon))
        #expect(line.contains("sms → \(PhoneNumber.masked("+15125550100")): failed (gateway 503), attempt 3"))
        #expect(!line.contains("5125550100"))
    }

    @Test func escalationsChatAndServices() {
        let escalation = EscalationEvent(
            id: "e1", walker: alice, reason: .trackerOffline, level: .amber, at: noon,
            lastFix: nil, walk: nil)
        #expect(
            plain.line(.escalation(escalation), walker: alice, now: noon)?
                .hasSuffix("ESCALATE   trackerOffline (amber), no known position id e1") == true)
        #expect(
            plain.line(.chat(ChatMessage(id: "c", text: "Just checking in!", tst: noon)), walker: alice, now: noon)?
                .hasSuffix("CHAT       companion: Just checking in!") == true)
        #expect(
            plain.line(.service(.watchdog, .offline), walker: nil, now: noon)
                == "22:13:20 -  SERVICE    watchdog offline")
    }

    @Test func positionsOnlyWhenAskedFor() {
        let update = PositionUpdate(
            fix: LocationFix(lat: 30.2849, lon: -97.7341, tst: noon, acc: 5), moved: true, lastMovedAt: noon)
        #expect(plain.line(.position(update), walker: alice, now: noon) == nil)
        let verbose = WatchFormatter(
            style: Style(enabled: false), timeZone: TimeZone(identifier: "UTC")!, showPositions: true)
        #expect(
            verbose.line(.position(update), walker: alice, now: noon)?.contains("30.28490,-97.73410 ±5 m moved") == true
        )
    }

    @Test func coloursOnlyWhenEnabled() throws {
        let status = WatchStatus(state: .alert, watching: true, since: noon, reason: .panic, level: .red)
        let coloured = WatchFormatter(style: Style(enabled: true), timeZone: TimeZone(identifier: "UTC")!)
        #expect(
            try #require(coloured.line(.status(status), walker: alice, now: noon)).contains(
                "\u{1B}[1;31mALERT panic (red)\u{1B}[0m"))
        #expect(!(try #require(plain.line(.status(status), walker: alice, now: noon)).contains("\u{1B}")))
    }

    @Test func boardKeepsALiveCountdownPerWalker() throws {
        var board = WatchBoard()
        let bob = try WalkerID("bob")
        board.apply(.status(WatchStatus(state: .checking, watching: true, since: noon)), walker: alice)
        board.apply(.prompt(CheckInPrompt(id: "p", at: noon, replyBy: noon + 120)), walker: alice)
        board.apply(
            .status(WatchStatus(state: .safe, watching: true, since: noon, nextCheckInAt: noon + 60)), walker: bob)
        let style = Style(enabled: false)
        #expect(
            board.statusLine(now: noon + 30, style: style)
                == "alice CHECKING · reply within 01:30  │  bob SAFE · next check-in in 00:30")
        board.apply(
            .status(WatchStatus(state: .safe, watching: true, since: noon + 31, nextCheckInAt: noon + 91)),
            walker: alice)
        #expect(board.walkers[alice]?.replyBy == nil)
        #expect(board.statusLine(now: noon + 31, style: style).hasPrefix("alice SAFE · next check-in in 01:00"))
    }

    @Test func decodesContractTopicsAndSurvivesGarbage() throws {
        let status = try SafeWalkJSON.encode(WatchStatus(state: .safe, watching: false, since: noon))
        let decoded = WatchEvent.decode(
            MQTTMessage(topic: "safewalk/alice/status", payload: status), prefix: "safewalk")
        #expect(decoded?.walker == alice)
        #expect(decoded?.event == .status(WatchStatus(state: .safe, watching: false, since: noon)))
        guard
            case .unreadable(.chat, _)? = WatchEvent.decode(
                MQTTMessage(topic: "safewalk/alice/chat", string: "{"), prefix: "safewalk")?.event
        else { Issue.record("garbage on chat should be shown as unreadable"); return }
        #expect(WatchEvent.decode(MQTTMessage(topic: "safewalk/alice/fix", string: "{}"), prefix: "safewalk") == nil)
        #expect(
            WatchEvent.decode(MQTTMessage(topic: "safewalk/alice/contacts/add", string: "{}"), prefix: "safewalk")
                == nil)
        #expect(
            WatchEvent.decode(MQTTMessage(topic: "elsewhere/alice/status", payload: status), prefix: "safewalk") == nil)
        #expect(
            WatchEvent.decode(MQTTMessage(topic: "safewalk/_service/watchdog", string: "online"), prefix: "safewalk")?
                .event
                == .service(.watchdog, .online))
    }

    @Test func clockTextUsesTheTimeZone() {
        #expect(ClockText.time(noon, timeZone: TimeZone(identifier: "UTC")!) == "22:13:20")
        #expect(ClockText.time(noon, timeZone: TimeZone(secondsFromGMT: -6 * 3600)!) == "16:13:20")
    }
}
