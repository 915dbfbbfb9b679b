import Foundation
import SafeWalkCore

/// The number behind the alert's call action (UT Police by default; docs/CONTRACT.md, `{w}/alert`).
public struct EmergencyNumber: Hashable, Sendable {
    public var label: String
    /// As configured; normalised with a 3-digit minimum so short codes like 911 work.
    public var number: String

    public init(label: String = "Call UT Police", number: String = "5124714441") {
        self.label = label
        self.number = number
    }
}

/// Everything the notifier needs for one escalation.
public struct ComposedAlert: Hashable, Sendable {
    /// For the walker's device: the help message and one-tap call/text actions.
    public var alert: DeviceAlert
    /// The help message for contacts.
    public var message: String
    /// The group text and which contacts it could not include.
    public var sms: GroupSMS
}

/// Builds the notifier's output for an escalation, purely.
public enum AlertComposer {
    /// - Parameters:
    ///   - name: how contacts know the walker.
    ///   - contacts: every stored contact; undialable ones are reported, never drop others.
    public static func compose(
        _ event: EscalationEvent, name: String, contacts: [Contact], emergency: EmergencyNumber = EmergencyNumber(),
        now: EpochSeconds, timeZone: TimeZone
    ) -> ComposedAlert {
        let message = HelpMessage.text(for: event, name: name, now: now, timeZone: timeZone)
        let sms = EscalationLinks.groupSMS(to: contacts.map(\.phone), body: message)
        var actions: [AlertAction] = []
        if let tel = EscalationLinks.tel(emergency.number, minimumDigits: 3) {
            actions.append(AlertAction(title: emergency.label, url: tel))
        }
        if let url = sms.url {
            actions.append(AlertAction(title: "Text my contacts", url: url))
        }
        let title = event.level == .red ? "SafeWalk: urgent alert" : "SafeWalk: alert"
        return ComposedAlert(
            alert: DeviceAlert(title: title, body: message, actions: actions), message: message, sms: sms)
    }
}
