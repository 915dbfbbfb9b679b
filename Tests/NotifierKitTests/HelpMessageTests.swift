import Foundation
import NotifierKit
import SafeWalkCore
import Testing

@Suite struct HelpMessageTests {
    let utc = TimeZone(secondsFromGMT: 0)!
    let austinTime = TimeZone(secondsFromGMT: -6 * 3600)!  // CST, fixed so tests need no tz database
    let lastFix = FixSummary(lat: 30.2849, lon: -97.7341, acc: 10, tst: t0 - 150)

    func message(
        _ reason: EscalationReason, _ level: EscalationLevel = .amber, fix: FixSummary? = nil, walk: WalkPlan? = nil,
        now: EpochSeconds = t0
    ) -> String {
        HelpMessage.text(
            name: "Alex", reason: reason, level: level, at: t0, lastFix: fix, walk: walk, now: now, timeZone: utc)
    }

    @Test func everyReasonIsExplainedInItsOwnPlainWords() {
        let texts = EscalationReason.allCases.map { message($0) }
        #expect(Set(texts).count == EscalationReason.allCases.count)
        #expect(texts.allSatisfy { $0.contains("Alex") })
        #expect(message(.noReply).contains("did not answer a safety check-in"))
        #expect(message(.noMovement).contains("has not moved"))
        #expect(message(.needHelp).contains("asked for help"))
        #expect(message(.trackerOffline).contains("phone went offline"))
    }

    @Test func redPanicSaysHelpNowAndAmberSaysKeepAnEyeOut() {
        let red = message(.panic, .red)
        let amber = message(.panic, .amber)
        #expect(red.hasPrefix("SafeWalk URGENT: Alex pressed the panic button and needs help now"))
        #expect(amber.hasPrefix("SafeWalk alert: Alex pressed the panic button: please keep an eye on them"))
    }

    @Test func timesAreShownInTheInjectedTimeZone() {
        // t0 is 2023-11-14 22:13:20 UTC.
        #expect(message(.needHelp).contains("(22:13)"))
        let local = HelpMessage.text(
            name: "Alex", reason: .needHelp, level: .red, at: t0, lastFix: nil, walk: nil, now: t0, timeZone: austinTime
        )
        #expect(local.contains("(16:13)"))
    }

    @Test func theDateIsShownWhenItIsNotToday() {
        #expect(message(.noReply, now: t0 + 86_400).contains("(2023-11-14 22:13)"))
    }

    @Test func aKnownPositionGetsAMapsLinkAndItsAge() {
        let text = message(.noMovement, fix: lastFix)
        #expect(text.hasSuffix("Last known position, 2 min ago: https://maps.google.com/?q=30.284900,-97.734100"))
        #expect(
            message(.noMovement, fix: FixSummary(lat: 1, lon: 2, acc: nil, tst: t0 - 20)).contains("under a minute ago")
        )
        #expect(
            message(.noMovement, fix: FixSummary(lat: 1, lon: 2, acc: nil, tst: t0 - 3_900)).contains("1 h 5 min ago"))
    }

    @Test func anUnknownPositionIsSaidPlainly() {
        #expect(message(.needHelp, .red).hasSuffix("Last position unknown."))
        let impossible = FixSummary(lat: .nan, lon: 0, acc: nil, tst: t0)
        #expect(message(.needHelp, fix: impossible).hasSuffix("Last position unknown."))
    }

    @Test func anOverdueWalkNamesTheDestinationAndTime() {
        let text = message(.walkOverdue, walk: WalkPlan(destination: "Library", eta: t0 - 60))
        #expect(text.contains("Alex has not arrived at Library, expected by 22:12"))
        #expect(!text.contains("Walking to"))
        #expect(message(.walkOverdue).contains("has not arrived when expected"))
    }

    @Test func otherReasonsMentionAWalkInProgress() {
        let text = message(.panic, .red, walk: WalkPlan(destination: "Jester Hall", eta: t0 + 600))
        #expect(text.contains("Walking to Jester Hall, expected 22:23."))
    }

    @Test func emojiInNamesAndDestinationsSurviveIntoTheText() throws {
        let text = HelpMessage.text(
            name: "Ana 🌙", reason: .needHelp, level: .red, at: t0, lastFix: nil,
            walk: WalkPlan(destination: "Café ☕️", eta: t0 + 60), now: t0, timeZone: utc)
        #expect(text.contains("Ana 🌙 asked for help"))
        let url = try #require(EscalationLinks.groupSMS(to: ["5124714441"], body: text).url)
        #expect(url.contains("Ana%20%F0%9F%8C%99"))
    }
}

@Suite struct AlertComposerTests {
    let event = EscalationEvent(
        id: "e1", walker: walker(), reason: .panic, level: .red, at: t0,
        lastFix: FixSummary(lat: 30.2849, lon: -97.7341, acc: 5, tst: t0), walk: nil)
    let contacts = [
        Contact(id: "1", name: "Mum", rawPhone: "512-471-4441"), Contact(id: "2", name: "Typo", rawPhone: "55"),
        Contact(id: "3", name: "Sam", rawPhone: "+1 737 555 0100"),
    ]

    @Test func theAlertOffersTheEmergencyCallAndAGroupText() throws {
        let composed = AlertComposer.compose(event, name: "Alex", contacts: contacts, now: t0, timeZone: .gmt)
        #expect(composed.alert.title == "SafeWalk: urgent alert")
        #expect(composed.alert.body == composed.message)
        #expect(composed.alert.actions.map(\.title) == ["Call UT Police", "Text my contacts"])
        #expect(composed.alert.actions[0].url == "tel:+15124714441")
        let sms = try #require(composed.alert.actions.last?.url)
        #expect(sms.hasPrefix("sms:+15124714441,+17375550100?&body=SafeWalk%20URGENT"))
        #expect(composed.sms.skipped.map(\.reason) == [.tooShort])
    }

    @Test func withoutDialableContactsTheEmergencyCallRemains() {
        let composed = AlertComposer.compose(
            event, name: "Alex", contacts: [], emergency: EmergencyNumber(label: "Call 911", number: "911"),
            now: t0, timeZone: .gmt)
        #expect(composed.alert.actions == [AlertAction(title: "Call 911", url: "tel:911")])
        #expect(composed.sms.url == nil)
    }

    @Test func amberAlertsAreNotUrgent() {
        var amber = event
        amber.level = .amber
        let composed = AlertComposer.compose(amber, name: "Alex", contacts: contacts, now: t0, timeZone: .gmt)
        #expect(composed.alert.title == "SafeWalk: alert")
    }
}

/// 2023-11-14 22:13:20 UTC.
private let t0: EpochSeconds = 1_700_000_000

private func walker() -> WalkerID {
    WalkerID(validating: "alice")!
}
