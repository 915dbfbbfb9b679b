import Foundation
import NotifierKit
import SafeWalkCore
import Testing

@Suite("Plan: help message, device alert, group sms link")
struct PlanBuilderTests {
    let utc = TimeZone(identifier: "UTC")!

    func plan(
        _ event: EscalationEvent = Fixtures.escalation(), contacts: [Contact] = Fixtures.threeWithOneUndialable,
        emergency: EmergencyNumber = EmergencyNumber()
    ) -> DeliveryPlan {
        PlanBuilder.plan(for: event, contacts: contacts, emergency: emergency, now: Fixtures.now, timeZone: utc)
    }

    @Test func oneUndialableContactLeavesTheOtherTwoInTheGroupLink() throws {
        let plan = plan()
        #expect(plan.recipients.map(\.phone) == ["+15125550101", "+442079460958"])
        #expect(plan.undialable.map(\.reason) == [.containsLetters])
        let text = try #require(plan.alert.actions.first { $0.url.hasPrefix("sms:") })
        #expect(text.title == "Text 2 contacts")
        #expect(text.url.hasPrefix("sms:+15125550101,+442079460958?&body="))
        #expect(text.url.contains(PercentEncoding.encode(plan.message)))
    }

    /// A device shows one alert per id: a notifier killed mid-send may send it twice.
    @Test func theDeviceAlertCarriesItsEscalationsID() {
        #expect(plan(Fixtures.escalation("esc-42")).alert.id == "esc-42")
    }

    @Test func callActionDialsTheConfiguredEmergencyNumber() {
        let actions = plan(emergency: EmergencyNumber(label: "Call 911", number: "911")).alert.actions
        #expect(actions.first == AlertAction(title: "Call 911", url: "tel:911"))
        #expect(plan().alert.actions.first == AlertAction(title: "Call UT Police", url: "tel:+15124714441"))
    }

    @Test func withoutADialableContactTheCallActionStandsAlone() {
        let plan = plan(contacts: [Fixtures.typo])
        #expect(plan.alert.actions == [AlertAction(title: "Call UT Police", url: "tel:+15124714441")])
        #expect(plan.recipients.isEmpty)
        #expect(plan.undialable.count == 1)
    }

    @Test func oneContactIsSingular() {
        #expect(plan(contacts: [Fixtures.ana]).alert.actions.last?.title == "Text 1 contact")
    }

    @Test func messageSaysWhoWhyWhenAndWhere() {
        let message = plan().message
        #expect(message.contains("alex asked for help"))
        #expect(message.contains("(07:59)"))  // the event time, 5 s before now, in UTC
        #expect(message.contains("https://maps.google.com/?q=30.285000,-97.735000"))
        #expect(message.contains("2 min ago"))
    }

    @Test func withoutAPositionTheMessageSaysSo() {
        let message = plan(Fixtures.escalation(lastFix: nil)).message
        #expect(message.contains("Last position unknown."))
        #expect(!message.contains("maps.google.com"))
    }

    @Test func amberPanicAsksContactsToKeepAnEyeWithNoPoliceAction() {
        let plan = plan(Fixtures.escalation(reason: .panic, level: .amber))
        #expect(plan.urgency == .keepAnEye)
        #expect(!plan.alert.actions.contains { $0.url.hasPrefix("tel:") })
        #expect(plan.alert.actions.map(\.title) == ["Text 2 contacts"])
        #expect(plan.message.contains("keep an eye"))
    }

    @Test(arguments: [
        (EscalationReason.panic, EscalationLevel.red), (.noReply, .amber), (.noMovement, .amber),
        (.walkOverdue, .amber), (.trackerOffline, .amber), (.needHelp, .red),
    ])
    func redAndEveryOtherReasonIsHelpNow(reason: EscalationReason, level: EscalationLevel) {
        let plan = plan(Fixtures.escalation(reason: reason, level: level))
        #expect(plan.urgency == .helpNow)
        #expect(plan.alert.actions.first?.url == "tel:+15124714441")
        #expect(plan.alert.title == "SafeWalk: get help now")
    }

    @Test func duplicateNumbersAreTextedOnce() {
        let twin = Contact(id: "c9", name: "Ana again", rawPhone: "+1 512 555 0101")
        #expect(plan(contacts: [Fixtures.ana, twin]).recipients.count == 1)
    }

    @Test func aContactTheStoreMarkedUndialableStaysUndialable() {
        let marked = Contact(id: "c4", name: "X", phone: "5125550199", dialable: false, reason: .tooShort)
        let plan = plan(contacts: [marked])
        #expect(plan.recipients.isEmpty)
        #expect(plan.undialable.map(\.reason) == [.tooShort])
        #expect(plan.undialable.first?.masked == "******0199")
    }
}

@Suite("Log channel")
struct LogChannelTests {
    @Test func theLogLineHoldsMaskedNumbersAndNoPosition() {
        let event = Fixtures.escalation()
        let plan = PlanBuilder.plan(
            for: event, contacts: Fixtures.threeWithOneUndialable, emergency: EmergencyNumber(),
            now: Fixtures.now, timeZone: TimeZone(identifier: "UTC")!)
        let line = "\(LogChannel.metadata(plan: plan, event: event))"
        #expect(line.contains("+*******0101"))
        #expect(line.contains("containsLetters"))
        #expect(!line.contains("5125550101"))
        #expect(!line.contains("CALL"))
        #expect(!line.contains("30.285"))
    }
}
